//! The walks over the grid against a brute-force reference in `f64` over random boxes of every
//! size (fine cells, coarse cells, the list of large bodies).

use bevy::math::DVec2;
use bevy::prelude::*;
use sat_core::Aabb;

use super::{CELL_PER_BODY, CELL_PER_BODY_UNCACHED, Grid, Item};
use crate::components::CollisionLayers;
use crate::step::testing::xorshift::XorShift;

/// The fine cells' sides over the median body size that `Grid::build` chooses from.
const PER_BODY: [f32; 2] = [CELL_PER_BODY, CELL_PER_BODY_UNCACHED];

/// 500 small boxes (sides 1–6), 60 medium (10–60) and 3 walls 2,000 long over a square 400
/// wide, placed as `Grid::build` places them with fine cells `per_body` times the median body
/// size: the boxes and the grid.
fn boxes(seed: u64, per_body: f32) -> (Vec<Aabb>, Grid) {
    let mut rng = XorShift::new(seed);
    let mut sizes = Vec::new();
    sizes.extend((0..500).map(|_| (1.0, 6.0)));
    sizes.extend((0..60).map(|_| (10.0, 60.0)));
    let square = (-200.0, 200.0);
    let mut boxes: Vec<Aabb> = sizes
        .iter()
        .map(|&sides| random_box(&mut rng, square, square, sides))
        .collect();
    boxes.extend([-150.0, 0.0, 170.0].map(wall));
    let grid = grid_of(&boxes, per_body);
    (boxes, grid)
}

/// A box whose centre's coordinates are drawn from `x` and `y` and each of its sides from
/// `sides` (all as `(low, high)`), in that order.
fn random_box(rng: &mut XorShift, x: (f32, f32), y: (f32, f32), sides: (f32, f32)) -> Aabb {
    let centre = Vec2::new(rng.range(x.0, x.1), rng.range(y.0, y.1));
    let half = Vec2::new(rng.range(sides.0, sides.1), rng.range(sides.0, sides.1)) * 0.5;
    Aabb {
        min: centre - half,
        max: centre + half,
    }
}

/// A wall 2,000 long and 8 tall from height `y`: a body for the list of large bodies.
fn wall(y: f32) -> Aabb {
    Aabb {
        min: Vec2::new(-1000.0, y),
        max: Vec2::new(1000.0, y + 8.0),
    }
}

/// How many times [`Grid::each_in_box`] visits each of the grid's `count` bodies for `area`.
fn visits_in_box(grid: &Grid, area: &Aabb, count: usize) -> Vec<u32> {
    let mut seen = vec![0u32; count];
    grid.each_in_box(
        area,
        |_| {},
        |item| {
            seen[item.body()] += 1;
            true
        },
    );
    seen
}

/// [`boxes`] and a crowd of 40 boxes (sides 1–3) within a unit of (10, 10): many more in one
/// cell than the walks test in one block.
fn crowded(seed: u64, per_body: f32) -> (Vec<Aabb>, Grid) {
    let (mut boxes, _) = boxes(seed, per_body);
    let mut rng = XorShift::new(seed ^ 0xc0ffee);
    boxes.extend((0..40).map(|_| random_box(&mut rng, (9.0, 11.0), (9.0, 11.0), (1.0, 3.0))));
    let grid = grid_of(&boxes, per_body);
    (boxes, grid)
}

/// The grid of `boxes`, placed as `Grid::build` places them with fine cells `per_body` times
/// the median body size.
fn grid_of(boxes: &[Aabb], per_body: f32) -> Grid {
    let mut grid = Grid::default();
    let mut sorted: Vec<f32> = boxes.iter().map(|b| b.size().max_element()).collect();
    sorted.sort_by(f32::total_cmp);
    let cell = sorted[sorted.len() / 2] * per_body;
    let mut coarse_cell = 0.0f32;
    for (i, aabb) in boxes.iter().enumerate() {
        let item = Item {
            aabb: *aabb,
            key: i as u32,
            memberships: CollisionLayers::ALL,
        };
        grid.file(item, i, cell, &mut coarse_cell);
    }
    grid.fine.fill(cell);
    grid.coarse.fill(coarse_cell);
    assert!(!grid.large.is_empty() && !grid.coarse.is_empty() && !grid.fine.is_empty());
    grid
}

/// The distance along `d` (unit) at which box `start` moved that far first overlaps or touches
/// `still`, if it does within `reach`: the slab test in `f64`.
fn meets(start: &Aabb, d: DVec2, reach: f64, still: &Aabb) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, reach);
    for axis in 0..2 {
        let lo = f64::from(still.min[axis]) - f64::from(start.max[axis]);
        let hi = f64::from(still.max[axis]) - f64::from(start.min[axis]);
        if d[axis] == 0.0 {
            if lo > 0.0 || hi < 0.0 {
                return None;
            }
        } else {
            let (a, b) = (lo / d[axis], hi / d[axis]);
            enter = enter.max(a.min(b));
            exit = exit.min(a.max(b));
        }
    }
    (enter <= exit).then_some(enter)
}

/// A random path: a point or a box, any direction or one along an axis, any reach to 300.
fn path(rng: &mut XorShift) -> (Aabb, Vec2, f32) {
    let at = Vec2::new(rng.range(-260.0, 260.0), rng.range(-260.0, 260.0));
    let half = if rng.next_u64().is_multiple_of(2) {
        Vec2::ZERO
    } else {
        Vec2::new(rng.range(0.5, 20.0), rng.range(0.5, 20.0))
    };
    let direction = match rng.next_u64() % 6 {
        0 => Vec2::X,
        1 => Vec2::NEG_Y,
        _ => Vec2::from_angle(rng.range(0.0, std::f32::consts::TAU)),
    };
    let start = Aabb {
        min: at - half,
        max: at + half,
    };
    (start, direction, rng.range(0.0, 300.0))
}

#[test]
fn a_walk_along_a_path_visits_every_box_it_meets_once() {
    for (seed, per_body) in (1..5).flat_map(|seed| PER_BODY.map(|p| (seed, p))) {
        let (boxes, grid) = if seed < 4 {
            boxes(seed, per_body)
        } else {
            crowded(seed, per_body)
        };
        let mut rng = XorShift::new(seed * 77);
        for _ in 0..500 {
            let (start, direction, reach) = path(&mut rng);
            let mut seen = vec![0u32; boxes.len()];
            grid.each_along(
                start,
                direction,
                reach,
                |_| {},
                |item| {
                    seen[item.body()] += 1;
                    f32::INFINITY
                },
            );
            for (i, aabb) in boxes.iter().enumerate() {
                let met = meets(&start, direction.as_dvec2(), f64::from(reach), aabb);
                assert!(seen[i] <= 1, "box {i} visited {} times", seen[i]);
                assert!(
                    met.is_none() || seen[i] == 1,
                    "box {i} {aabb:?} met at {met:?} by {start:?} along {direction} within {reach}"
                );
            }
        }
    }
}

#[test]
fn a_walk_along_a_path_finds_the_nearest_box_first_and_stops_beyond_it() {
    for per_body in PER_BODY {
        nearest_first(per_body);
    }
}

/// [`a_walk_along_a_path_finds_the_nearest_box_first_and_stops_beyond_it`] with fine cells
/// `per_body` times the median body size.
fn nearest_first(per_body: f32) {
    let (boxes, grid) = boxes(9, per_body);
    let mut rng = XorShift::new(4242);
    let (mut visited, mut met) = (0, 0);
    for _ in 0..2000 {
        let (start, direction, reach) = path(&mut rng);
        let d = direction.as_dvec2();
        let nearest = boxes
            .iter()
            .filter_map(|b| meets(&start, d, f64::from(reach), b))
            .fold(f64::INFINITY, f64::min);
        met += boxes
            .iter()
            .filter(|b| meets(&start, d, f64::from(reach), b).is_some())
            .count();
        // The caller wants the nearest box: what it has found so far bounds the walk.
        let mut best = f64::INFINITY;
        grid.each_along(
            start,
            direction,
            reach,
            |_| {},
            |item| {
                visited += 1;
                if let Some(enter) = meets(&start, d, f64::from(reach), &item.aabb) {
                    best = best.min(enter);
                }
                best as f32
            },
        );
        assert_eq!(best, nearest, "{start:?} along {direction} within {reach}");
    }
    // Nearest first: most boxes the paths meet lie beyond the nearest and are never visited.
    assert!(
        visited * 3 < met,
        "{visited} boxes visited for {met} met by the paths"
    );
}

#[test]
fn a_walk_in_a_box_visits_every_box_it_meets_once_and_no_other() {
    for (seed, per_body) in (1..4).flat_map(|seed| PER_BODY.map(|p| (seed, p))) {
        let (boxes, grid) = crowded(seed, per_body);
        let mut rng = XorShift::new(seed * 31);
        for n in 0..1000 {
            // Points (a third of them in the crowd) and boxes up to 40 wide.
            let at = if n % 3 == 0 {
                Vec2::new(rng.range(8.0, 12.0), rng.range(8.0, 12.0))
            } else {
                Vec2::new(rng.range(-260.0, 260.0), rng.range(-260.0, 260.0))
            };
            let half = if n % 2 == 0 {
                Vec2::ZERO
            } else {
                Vec2::new(rng.range(0.0, 20.0), rng.range(0.0, 20.0))
            };
            let area = Aabb {
                min: at - half,
                max: at + half,
            };
            let seen = visits_in_box(&grid, &area, boxes.len());
            for (i, aabb) in boxes.iter().enumerate() {
                let meets = (0..2).all(|axis| {
                    f64::from(aabb.min[axis]) <= f64::from(area.max[axis])
                        && f64::from(area.min[axis]) <= f64::from(aabb.max[axis])
                });
                assert_eq!(
                    seen[i],
                    u32::from(meets),
                    "box {i} {aabb:?} against {area:?}"
                );
            }
        }
    }
}

/// A box as wide as the grid: each of its rows ends at the grid's last column, where a short
/// row's window reads on into the next row's items, which the walk takes in their own row.
/// Each box it meets is visited once.
#[test]
fn a_walk_in_a_box_as_wide_as_the_grid_visits_each_box_once() {
    let mut rng = XorShift::new(7);
    // A column of small boxes, two medium ones and a wall: every part of the grid is used.
    let mut sides: Vec<(f32, f32)> = (0..300).map(|_| (1.0, 6.0)).collect();
    sides.extend([(14.0, 15.0); 2]);
    let mut boxes: Vec<Aabb> = sides
        .iter()
        .map(|&sides| random_box(&mut rng, (-5.0, 5.0), (-200.0, 200.0), sides))
        .collect();
    boxes.push(wall(50.0));
    for per_body in PER_BODY {
        wide_walks(&boxes, &grid_of(&boxes, per_body), &mut rng);
    }
}

/// [`a_walk_in_a_box_as_wide_as_the_grid_visits_each_box_once`] over `grid`, the grid of
/// `boxes`.
fn wide_walks(boxes: &[Aabb], grid: &Grid, rng: &mut XorShift) {
    for n in 0..200 {
        let y = rng.range(-210.0, 210.0);
        let area = Aabb {
            min: Vec2::new(-20.0, y),
            max: Vec2::new(20.0, y + (n % 8) as f32),
        };
        let seen = visits_in_box(grid, &area, boxes.len());
        for (i, aabb) in boxes.iter().enumerate() {
            let meets = aabb.min.y <= area.max.y && area.min.y <= aabb.max.y;
            assert_eq!(
                seen[i],
                u32::from(meets),
                "box {i} {aabb:?} against {area:?}"
            );
        }
    }
}

#[test]
fn fine_cells_grow_once_the_items_outgrow_the_cache() {
    assert_eq!(super::cell_per_body(16_000), CELL_PER_BODY);
    assert_eq!(super::cell_per_body(43_690), CELL_PER_BODY);
    assert_eq!(super::cell_per_body(43_691), CELL_PER_BODY_UNCACHED);
    assert_eq!(super::cell_per_body(64_000), CELL_PER_BODY_UNCACHED);
    assert_eq!(super::cell_per_body(usize::MAX), CELL_PER_BODY_UNCACHED);
}
