//! Merging one chunk of a [`TileGrid`]'s cells into rectangular pieces.
//!
//! Solid cells become rectangles whose every face is either wholly against other cells (then
//! it is hidden: never a push axis) or wholly open. A face partly against a cell and partly
//! open would be neither: hidden, it would let bodies into the grid where it is open; open,
//! it would snag a body sliding past where it is covered (a body sliding down a wall whose
//! rows differ in width would be caught by the lower row's top face). So a row of solid cells
//! is cut wherever the cells above or below it change between solid and not, and rows are
//! stacked into one rectangle only when their left and right neighbours are alike.
//!
//! One-way cells become one piece per run in a row: stacking them would make a platform solid
//! from above at its top row only.

use bevy::prelude::*;

use super::grid::{CHUNK, Tile, TileGrid};

/// Bits of [`Piece::hidden`]: the faces of a rectangle in the order of
/// [`ConvexPolygon::rectangle`](sat_core::ConvexPolygon::rectangle)'s edges.
pub(crate) const BOTTOM: u16 = 1 << 0;
pub(crate) const RIGHT: u16 = 1 << 1;
pub(crate) const TOP: u16 = 1 << 2;
pub(crate) const LEFT: u16 = 1 << 3;

/// A rectangle of cells `[min, max)` of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub min: UVec2,
    pub max: UVec2,
    pub one_way: bool,
    /// The faces against other cells ([`BOTTOM`], [`RIGHT`], [`TOP`], [`LEFT`]).
    pub hidden: u16,
}

/// Appends to `out` the pieces of chunk `chunk` (in chunks, not cells) of `grid`, row by row
/// from the bottom.
pub(crate) fn merge_chunk(grid: &TileGrid, chunk: UVec2, out: &mut Vec<Piece>) {
    let start = chunk * CHUNK;
    let end = (start + CHUNK).min(grid.size());
    let solid = |x: u32, y: i64| grid.tile_at(i64::from(x), y) == Tile::Solid;
    // Whether the side face of solid cell `(x, y)` toward `(beside, y)` is hidden: against a
    // solid cell, or against a one-way cell level with it whose top is a floor (a body walking
    // off the one-way cell onto it must not meet its side).
    let side_hidden = |x: u32, beside: i64, y: i64| match grid.tile_at(beside, y) {
        Tile::Solid => true,
        Tile::OneWay => !solid(x, y + 1),
        Tile::Empty => false,
    };
    // The solid pieces reaching the row below the current one (their `max.y` is that row's).
    let mut open: Vec<Piece> = Vec::new();
    let mut next: Vec<Piece> = Vec::new();
    for y in start.y..end.y {
        let row = i64::from(y);
        let mut x = start.x;
        while x < end.x {
            let from = x;
            match grid.tile_at(i64::from(x), row) {
                Tile::Empty => x += 1,
                Tile::OneWay => {
                    while x < end.x && grid.tile_at(i64::from(x), row) == Tile::OneWay {
                        x += 1;
                    }
                    out.push(Piece {
                        min: UVec2::new(from, y),
                        max: UVec2::new(x, y + 1),
                        one_way: true,
                        hidden: 0,
                    });
                }
                Tile::Solid => {
                    x += 1;
                    while x < end.x
                        && solid(x, row)
                        && solid(x, row + 1) == solid(from, row + 1)
                        && solid(x, row - 1) == solid(from, row - 1)
                    {
                        x += 1;
                    }
                    let mut hidden = 0;
                    if solid(from, row - 1) {
                        hidden |= BOTTOM;
                    }
                    if solid(from, row + 1) {
                        hidden |= TOP;
                    }
                    if side_hidden(from, i64::from(from) - 1, row) {
                        hidden |= LEFT;
                    }
                    if side_hidden(x - 1, i64::from(x), row) {
                        hidden |= RIGHT;
                    }
                    let sides = LEFT | RIGHT;
                    let below = open.iter().position(|p| {
                        p.min.x == from && p.max.x == x && p.hidden & sides == hidden & sides
                    });
                    let piece = match below {
                        Some(k) => {
                            let mut p = open.swap_remove(k);
                            p.max.y = y + 1;
                            p.hidden = p.hidden & !TOP | hidden & TOP;
                            p
                        }
                        None => Piece {
                            min: UVec2::new(from, y),
                            max: UVec2::new(x, y + 1),
                            one_way: false,
                            hidden,
                        },
                    };
                    next.push(piece);
                }
            }
        }
        // What did not reach this row is finished.
        out.append(&mut open);
        std::mem::swap(&mut open, &mut next);
    }
    out.append(&mut open);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A grid from rows of text, top row first: `#` solid, `-` one-way, `.` empty.
    fn grid(rows: &[&str]) -> TileGrid {
        let size = UVec2::new(rows[0].len() as u32, rows.len() as u32);
        let mut grid = TileGrid::new(size, Vec2::ONE);
        for (r, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let tile = match c {
                    '#' => Tile::Solid,
                    '-' => Tile::OneWay,
                    _ => Tile::Empty,
                };
                grid.set(UVec2::new(x as u32, size.y - 1 - r as u32), tile);
            }
        }
        grid
    }

    fn pieces(grid: &TileGrid) -> Vec<Piece> {
        let mut out = Vec::new();
        let chunks = grid.chunks();
        for cy in 0..chunks.y {
            for cx in 0..chunks.x {
                merge_chunk(grid, UVec2::new(cx, cy), &mut out);
            }
        }
        out
    }

    fn piece(min: (u32, u32), max: (u32, u32), hidden: u16) -> Piece {
        Piece {
            min: min.into(),
            max: max.into(),
            one_way: false,
            hidden,
        }
    }

    #[test]
    fn a_solid_block_is_one_piece_with_no_hidden_face() {
        let g = grid(&["....", ".##.", ".##.", "...."]);
        assert_eq!(pieces(&g), vec![piece((1, 1), (3, 3), 0)]);
    }

    #[test]
    fn a_step_is_cut_where_the_row_above_ends() {
        // The bottom row is cut at x = 1, where the cell above starts being solid, and the
        // rows are not stacked, since the bottom one's left face is against a cell and the
        // top one's is open: each face is wholly covered or wholly open.
        let g = grid(&[".##", "###"]);
        assert_eq!(
            pieces(&g),
            vec![
                piece((0, 0), (1, 1), RIGHT),
                piece((1, 0), (3, 1), LEFT | TOP),
                piece((1, 1), (3, 2), BOTTOM),
            ]
        );
    }

    #[test]
    fn one_way_runs_stay_one_way_and_hide_the_solid_side_beside_them() {
        let g = grid(&["--##--"]);
        let got = pieces(&g);
        let one_way = |min: u32, max: u32| Piece {
            min: UVec2::new(min, 0),
            max: UVec2::new(max, 1),
            one_way: true,
            hidden: 0,
        };
        assert_eq!(
            got,
            vec![
                one_way(0, 2),
                one_way(4, 6),
                piece((2, 0), (4, 1), LEFT | RIGHT)
            ]
        );
    }

    #[test]
    fn a_wall_behind_a_ledge_keeps_its_face_open() {
        // The one-way cell sticks out of a wall that goes on above it: the wall's face there
        // is a wall for bodies below the ledge.
        let g = grid(&["#.", "#-", "#."]);
        let got = pieces(&g);
        assert_eq!(got.iter().filter(|p| p.one_way).count(), 1);
        assert_eq!(
            got.iter()
                .filter(|p| !p.one_way)
                .copied()
                .collect::<Vec<_>>(),
            vec![piece((0, 0), (1, 3), 0)]
        );
    }

    #[test]
    fn pieces_cover_exactly_the_solid_and_one_way_cells() {
        let g = grid(&[
            "..##..#...#####.....##",
            "#.####.--.#...#..--.##",
            "######.#####.####...##",
            "#.#.#.#.#.#.#.#.#.#.#.",
        ]);
        let mut covered = vec![Tile::Empty; (g.size().x * g.size().y) as usize];
        for p in pieces(&g) {
            for y in p.min.y..p.max.y {
                for x in p.min.x..p.max.x {
                    let cell = &mut covered[(y * g.size().x + x) as usize];
                    assert_eq!(*cell, Tile::Empty, "({x}, {y}) covered twice");
                    *cell = if p.one_way { Tile::OneWay } else { Tile::Solid };
                }
            }
        }
        for y in 0..g.size().y {
            for x in 0..g.size().x {
                let at = UVec2::new(x, y);
                assert_eq!(covered[(y * g.size().x + x) as usize], g.get(at), "{at}");
            }
        }
    }

    /// A cave-like grid: random cells about 45% solid, smoothed by a few rounds of the
    /// 4-5 cellular automaton, which leaves about 30% solid in blobs and tunnels.
    fn cave(size: UVec2, seed: u64) -> TileGrid {
        let mut state = seed;
        let mut random = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (w, h) = (size.x as usize, size.y as usize);
        let mut cells: Vec<bool> = (0..w * h).map(|_| random() % 100 < 45).collect();
        for _ in 0..4 {
            let solid = |x: isize, y: isize| {
                x < 0
                    || y < 0
                    || x >= w as isize
                    || y >= h as isize
                    || cells[y as usize * w + x as usize]
            };
            let next: Vec<bool> = (0..w * h)
                .map(|i| {
                    let (x, y) = ((i % w) as isize, (i / w) as isize);
                    let around = (-1..=1)
                        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                        .filter(|&(dx, dy)| (dx, dy) != (0, 0) && solid(x + dx, y + dy))
                        .count();
                    around >= 5 || (around == 4 && cells[i])
                })
                .collect();
            cells = next;
        }
        let mut grid = TileGrid::new(size, Vec2::ONE);
        for (i, &solid) in cells.iter().enumerate() {
            if solid {
                grid.set(UVec2::new((i % w) as u32, (i / w) as u32), Tile::Solid);
            }
        }
        grid
    }

    /// Prints how many pieces a cave of 1000 × 1000 cells gives, and how long merging takes
    /// (a measurement, not a check: `cargo test -p bevy_sat --lib cave_pieces -- --ignored
    /// --nocapture`).
    #[test]
    #[ignore = "a measurement"]
    fn cave_pieces() {
        for side in [200, 1000] {
            let g = cave(UVec2::splat(side), 0x9E37_79B9_7F4A_7C15);
            let solid = (0..side * side)
                .filter(|i| g.get(UVec2::new(i % side, i / side)) == Tile::Solid)
                .count();
            let start = std::time::Instant::now();
            let count = pieces(&g).len();
            let took = start.elapsed();
            println!(
                "PIECES {side} x {side}: {solid} solid cells ({:.1}%), {count} pieces \
                 ({:.2} cells per piece), merged in {took:?}",
                100.0 * solid as f64 / f64::from(side * side),
                solid as f64 / count as f64
            );
        }
    }
}
