//! `--tiles`: the tile-grid benchmark. A 1000 × 1000 `TileGrid` of 16-unit cells, about 30%
//! solid in a cave-like pattern (random fill smoothed by a cellular automaton, from the seed).
//! Prints, one line each: the time to fill the grid, the first step (which merges every chunk)
//! and the number of pieces; the cost of one `set` (with the grid alone, the median of steps
//! after toggling one cell less the median of steps without, interleaved); and the median step
//! with `--bodies` Weak bodies walking through the caves against the same bodies walking on a
//! floor of 4 plain boxes, and, like for like, against the same bodies among the grid's pieces
//! spawned as plain Mighty boxes; then the same bodies walking on the bottom row of the same
//! grid (the rows just above it emptied) against the floor of boxes again.

use std::time::Instant;

use bevy::prelude::*;
use bevy_sat::prelude::*;

use super::harness;
use super::scene::{Options, XorShift, median_and_mean};

/// Cells per side.
const SIDE: u32 = 1000;
/// Cell size in units.
const CELL: f32 = 16.0;

/// Runs the benchmark and prints its figures.
pub fn run(options: &Options) {
    let solid = cave(options.seed);
    let filled = solid.iter().filter(|&&s| s).count() as f64 / solid.len() as f64;

    let start = Instant::now();
    let grid = filled_grid(&solid);
    let fill_ms = start.elapsed().as_secs_f64() * 1000.0;

    // The grid scene: the grid, bodies in open cells.
    let mut app = app_with(options);
    let grid_entity = app.world_mut().spawn((grid, Transform::IDENTITY)).id();
    spawn_bodies(&mut app, options, |rng| open_spot(rng, &solid));
    harness::warm_up(&mut app, 0);
    let start = Instant::now();
    app.update(); // the first step: every chunk merged
    let build_ms = start.elapsed().as_secs_f64() * 1000.0;
    let pieces = app
        .world()
        .get::<TilePieces>(grid_entity)
        .map_or(0, TilePieces::len);
    println!(
        "tiles: {SIDE} x {SIDE} cells, {:.1}% solid: fill {fill_ms:.2} ms, first step {build_ms:.2} ms, {pieces} pieces",
        filled * 100.0
    );
    for _ in 0..options.warmup {
        app.update();
    }

    // One `set`, timed with the grid alone (no bodies: a step is then little more than the
    // rebuild of the chunks around the cell): steps after toggling a random cell, interleaved
    // with steps without.
    let mut lone = app_with(options);
    let lone_grid = lone
        .world_mut()
        .spawn((filled_grid(&solid), Transform::IDENTITY))
        .id();
    harness::warm_up(&mut lone, options.warmup);
    let (mut with_set, mut without) = (Vec::new(), Vec::new());
    let mut rng = XorShift::new(options.seed ^ 0x5e7);
    for round in 0..options.steps.max(200) {
        let start = Instant::now();
        if round % 2 == 0 {
            let cell = cell_of(rng.int(0, SIDE * SIDE - 1) as usize);
            let Some(mut grid) = lone.world_mut().get_mut::<TileGrid>(lone_grid) else {
                break;
            };
            let flipped = match grid.get(cell) {
                Tile::Empty => Tile::Solid,
                _ => Tile::Empty,
            };
            grid.set(cell, flipped);
            lone.update();
            with_set.push(start.elapsed().as_secs_f64() * 1000.0);
        } else {
            lone.update();
            without.push(start.elapsed().as_secs_f64() * 1000.0);
        }
    }
    drop(lone);
    let (set_step, _) = median_and_mean(&mut with_set);
    let (lone_step, _) = median_and_mean(&mut without);
    println!(
        "tiles: one set {:.1} µs (the grid alone: step with a set {set_step:.4} ms, without {lone_step:.4} ms)",
        (set_step - lone_step) * 1000.0
    );

    // The same bodies on a floor of plain boxes.
    let mut boxes = app_with(options);
    let width = SIDE as f32 * CELL;
    for i in 0..4 {
        let x = (i as f32 + 0.5) * width / 4.0;
        boxes.world_mut().spawn((
            ConvexCollider::rectangle(width / 4.0, CELL),
            Mighty,
            Transform::from_xyz(x, -CELL / 2.0, 0.0),
        ));
    }
    spawn_bodies(&mut boxes, options, |rng| {
        Vec2::new(rng.range(8.0, width - 8.0), 5.0)
    });
    let mut box_times = harness::run(&mut boxes, options.warmup, options.steps);
    let (box_step, _) = median_and_mean(&mut box_times);
    let mut grid_times = harness::time_steps(&mut app, options.steps);
    let (grid_step, _) = median_and_mean(&mut grid_times);
    println!(
        "tiles: {} Weak bodies, median step over the grid {grid_step:.3} ms, over 4 boxes {box_step:.3} ms ({:.2}x)",
        options.bodies,
        grid_step / box_step
    );

    // Like for like in the caves: the same bodies among the grid's pieces spawned as plain
    // Mighty boxes, one entity per piece.
    let mut plain = app_with(options);
    if let Some(pieces) = app.world().get::<TilePieces>(grid_entity) {
        for piece in pieces.iter() {
            let (first, last) = piece.cells();
            let size = (last + UVec2::ONE - first).as_vec2() * CELL;
            let centre = first.as_vec2() * CELL + size / 2.0;
            let mut entity = plain.world_mut().spawn((
                ConvexCollider::rectangle(size.x, size.y),
                Mighty,
                Transform::from_translation(centre.extend(0.0)),
            ));
            if piece.is_one_way() {
                entity.insert(OneWayPlatform::default());
            }
        }
    }
    spawn_bodies(&mut plain, options, |rng| open_spot(rng, &solid));
    let mut plain_times = harness::run(&mut plain, options.warmup, options.steps);
    let (plain_step, _) = median_and_mean(&mut plain_times);
    let mut grid_times = harness::time_steps(&mut app, options.steps);
    let (grid_step, _) = median_and_mean(&mut grid_times);
    println!(
        "tiles: {} Weak bodies in the caves, median step over the grid {grid_step:.3} ms, over its {pieces} pieces as plain boxes {plain_step:.3} ms ({:.2}x)",
        options.bodies,
        grid_step / plain_step
    );
    drop((app, plain));

    // Like for like: the same bodies walking on the whole grid's bottom row (the rows above it
    // up to row 8 emptied), as they walk on the boxes.
    let mut floor = TileGrid::new(UVec2::splat(SIDE), Vec2::splat(CELL));
    for (i, _) in solid.iter().enumerate().filter(|(_, s)| **s) {
        let cell = cell_of(i);
        if cell.y == 0 || cell.y > 8 {
            floor.set(cell, Tile::Solid);
        }
    }
    let mut on_row = app_with(options);
    on_row.world_mut().spawn((floor, Transform::IDENTITY));
    spawn_bodies(&mut on_row, options, |rng| {
        Vec2::new(rng.range(8.0, width - 8.0), CELL + 5.0)
    });
    let mut row_times = harness::run(&mut on_row, options.warmup, options.steps);
    let (row_step, _) = median_and_mean(&mut row_times);
    let mut box_times = harness::time_steps(&mut boxes, options.steps);
    let (box_step, _) = median_and_mean(&mut box_times);
    println!(
        "tiles: {} Weak bodies on the grid's bottom row, median step {row_step:.3} ms, over 4 boxes {box_step:.3} ms ({:.2}x)",
        options.bodies,
        row_step / box_step
    );
}

/// A headless app with gravity, one fixed step per update.
fn app_with(options: &Options) -> App {
    let mut app = App::new();
    app.add_plugins((
        harness::minimal_plugins(options.threads),
        SatPlugin::default(),
    ))
    .insert_resource(SatConfig {
        gravity: Vec2::new(0.0, -900.0),
        ..default()
    });
    harness::one_fixed_step_per_update(&mut app);
    app
}

/// `--bodies` 10 × 10 Weak boxes at places from `at`, walking right or left at 60 units/s.
fn spawn_bodies(app: &mut App, options: &Options, mut at: impl FnMut(&mut XorShift) -> Vec2) {
    let mut rng = XorShift::new(options.seed);
    for i in 0..options.bodies {
        let position = at(&mut rng);
        let speed = if i % 2 == 0 { 60.0 } else { -60.0 };
        app.world_mut().spawn((
            ConvexCollider::rectangle(10.0, 10.0),
            Weak,
            Velocity(Vec2::new(speed, 0.0)),
            Transform::from_translation(position.extend(0.0)),
        ));
    }
}

/// The centre of a random empty cell whose neighbours are empty too.
fn open_spot(rng: &mut XorShift, solid: &[bool]) -> Vec2 {
    loop {
        let (x, y) = (rng.int(1, SIDE - 2), rng.int(1, SIDE - 2));
        let clear =
            (x - 1..=x + 1).all(|cx| (y - 1..=y + 1).all(|cy| !solid[(cy * SIDE + cx) as usize]));
        if clear {
            return (Vec2::new(x as f32, y as f32) + 0.5) * CELL;
        }
    }
}

/// A grid whose cells are solid where `solid` says.
fn filled_grid(solid: &[bool]) -> TileGrid {
    let mut grid = TileGrid::new(UVec2::splat(SIDE), Vec2::splat(CELL));
    for (i, _) in solid.iter().enumerate().filter(|(_, s)| **s) {
        grid.set(cell_of(i), Tile::Solid);
    }
    grid
}

fn cell_of(i: usize) -> UVec2 {
    UVec2::new(i as u32 % SIDE, i as u32 / SIDE)
}

/// Caves: each cell solid with probability 0.45, then 4 rounds of "solid when at least 5 of
/// the 9 cells around it (itself included) are", the border always solid.
fn cave(seed: u64) -> Vec<bool> {
    let side = SIDE as usize;
    let mut rng = XorShift::new(seed);
    let mut cells: Vec<bool> = (0..side * side).map(|_| rng.unit() < 0.45).collect();
    let mut next = cells.clone();
    for _ in 0..4 {
        for y in 0..side {
            for x in 0..side {
                let border = x == 0 || y == 0 || x == side - 1 || y == side - 1;
                next[y * side + x] = border || {
                    let mut count = 0;
                    for cy in y - 1..=y + 1 {
                        for cx in x - 1..=x + 1 {
                            count += usize::from(cells[cy * side + cx]);
                        }
                    }
                    count >= 5
                };
            }
        }
        std::mem::swap(&mut cells, &mut next);
    }
    cells
}
