//! `convex_decomposition` refuses each kind of bad outline with its own error, and handles the
//! edge cases met while building it.

mod common;

use common::outline_reference::area;
use glam::{DVec2, Vec2};
use sat_core::{
    ConvexPolygon, MAX_OUTLINE_VERTICES, MAX_VERTICES, PolygonError, convex_decomposition,
};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn parts_area(points: &[Vec2]) -> f64 {
    let parts = convex_decomposition(points.iter().copied()).unwrap();
    parts
        .parts()
        .iter()
        .map(|p| {
            area(
                &p.vertices()
                    .iter()
                    .map(|v| v.as_dvec2())
                    .collect::<Vec<_>>(),
            )
        })
        .sum()
}

fn outline_area(points: &[Vec2]) -> f64 {
    area(&points.iter().map(|v| v.as_dvec2()).collect::<Vec<DVec2>>())
}

#[test]
fn too_few_and_too_many_points() {
    assert_eq!(
        convex_decomposition([]),
        Err(PolygonError::TooFewPoints { count: 0 })
    );
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(1.0, 0.0)]),
        Err(PolygonError::TooFewPoints { count: 2 })
    );
    let n = MAX_OUTLINE_VERTICES + 1;
    let circle = (0..n).map(|i| Vec2::from_angle(i as f32 / n as f32 * core::f32::consts::TAU));
    assert_eq!(
        convex_decomposition(circle),
        Err(PolygonError::TooManyVertices {
            count: n,
            max: MAX_OUTLINE_VERTICES
        })
    );
}

#[test]
fn non_finite_and_out_of_range() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(
            convex_decomposition([v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, bad)]),
            Err(PolygonError::NonFinite { index: 3 })
        );
    }
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(1.0e19, 0.0), v(1.0, 1.0)]),
        Err(PolygonError::OutOfRange { index: 1 })
    );
}

#[test]
fn repeated_points() {
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Err(PolygonError::DuplicatePoint { index: 2 })
    );
    // The last point repeating the first.
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(0.0, 0.0)]),
        Err(PolygonError::DuplicatePoint { index: 0 })
    );
}

#[test]
fn zero_area() {
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(1.0, 0.0), v(2.0, 0.0)]),
        Err(PolygonError::ZeroArea)
    );
    // A figure eight whose loops cancel out.
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(1.0, 1.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Err(PolygonError::ZeroArea)
    );
}

#[test]
fn crossing_touching_and_folding_outlines() {
    // A lopsided bow tie: edge 0 crosses edge 2.
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 1.0)]),
        Err(PolygonError::OutlineCrosses {
            first: 0,
            second: 2
        })
    );
    // Two triangles meeting at one corner (1, 1), visited twice: edges 1 and 4 touch there.
    assert_eq!(
        convex_decomposition([
            v(0.0, 0.0),
            v(2.0, 0.0),
            v(1.0, 1.0),
            v(2.0, 2.0),
            v(0.0, 2.0),
            v(1.0, 1.0),
        ]),
        Err(PolygonError::OutlineCrosses {
            first: 1,
            second: 4
        })
    );
    // Edge 1 runs back along edge 0: a spike of no width.
    assert_eq!(
        convex_decomposition([v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)]),
        Err(PolygonError::OutlineCrosses {
            first: 0,
            second: 1
        })
    );
    // A corner resting on a non-adjacent edge: point 4 lies on edge 0.
    assert_eq!(
        convex_decomposition([
            v(0.0, 0.0),
            v(4.0, 0.0),
            v(4.0, 2.0),
            v(3.0, 2.0),
            v(2.0, 0.0),
            v(1.0, 2.0),
            v(0.0, 2.0),
        ]),
        Err(PolygonError::OutlineCrosses {
            first: 0,
            second: 3
        })
    );
}

#[test]
fn needle_too_thin_for_a_part_is_refused() {
    // A square with a needle 0.002 wide and 4000 long on its top-left corner: its tip turns by
    // less than a convex polygon can hold.
    let outline = [
        v(0.0, 0.0),
        v(1000.0, 0.0),
        v(1000.0, 1000.0),
        v(0.002, 1000.0),
        v(0.001, 5000.0),
        v(0.0, 1000.0),
    ];
    assert_eq!(
        convex_decomposition(outline),
        Err(PolygonError::NoValidParts { index: 4 })
    );
}

#[test]
fn collinear_points_are_dropped() {
    let square = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(2.0, 2.0),
        v(1.0, 2.0),
        v(0.0, 2.0),
        v(0.0, 1.0),
    ];
    let parts = convex_decomposition(square).unwrap();
    assert_eq!(parts.len(), 1);
    assert_eq!(
        parts.parts()[0].vertices(),
        &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)]
    );
    assert_eq!(parts.internal_edges(), &[0]);
    // Clockwise, starting on a collinear point: stored as `ConvexPolygon::new` stores it.
    let mut cw = square;
    cw.reverse();
    let parts = convex_decomposition(cw).unwrap();
    assert_eq!(parts.parts(), &[ConvexPolygon::new(cw).unwrap()]);
    assert_eq!(
        parts.parts()[0].vertices(),
        &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)]
    );
}

#[test]
fn convex_outlines_beyond_the_corner_limit_are_split() {
    let n = 20;
    let circle: Vec<Vec2> = (0..n)
        .map(|i| Vec2::from_angle(i as f32 / n as f32 * core::f32::consts::TAU) * 10.0)
        .collect();
    let parts = convex_decomposition(circle.iter().copied()).unwrap();
    // 18 triangles' worth, at most 6 per part.
    assert!(parts.len() >= 3);
    assert!(
        parts
            .parts()
            .iter()
            .all(|p| p.vertices().len() <= MAX_VERTICES)
    );
    let (got, want) = (parts_area(&circle), outline_area(&circle));
    assert!((got - want).abs() <= want * 1.0e-12, "{got} vs {want}");
    // An octagon is one part with no internal edge.
    let octagon: Vec<Vec2> = (0..8)
        .map(|i| Vec2::from_angle(i as f32 / 8.0 * core::f32::consts::TAU))
        .collect();
    let one = convex_decomposition(octagon.iter().copied()).unwrap();
    assert_eq!((one.len(), one.internal_edges()), (1, &[0u16][..]));
    assert_eq!(one.parts()[0], ConvexPolygon::new(octagon).unwrap());
}

#[test]
fn l_shape_in_either_winding_gives_the_same_parts() {
    let l = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 2.0),
        v(0.0, 2.0),
    ];
    let ccw = convex_decomposition(l).unwrap();
    let mut reversed = l;
    reversed.reverse();
    let cw = convex_decomposition(reversed).unwrap();
    assert_eq!(ccw.len(), 2);
    assert_eq!(cw.len(), 2);
    let set = |p: &sat_core::ConvexParts| {
        let mut v: Vec<Vec<(u32, u32)>> = p
            .parts()
            .iter()
            .map(|q| {
                let mut c: Vec<_> = q
                    .vertices()
                    .iter()
                    .map(|v| (v.x.to_bits(), v.y.to_bits()))
                    .collect();
                c.sort();
                c
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(set(&ccw), set(&cw));
    for parts in [&ccw, &cw] {
        for (part, mask) in parts.iter() {
            assert_eq!(mask.count_ones(), 1);
            // The shared edge runs from the inner corner (1, 1) to (0, 0) or (2, 0)... one of
            // the outline's corners across the L.
            let k = mask.trailing_zeros() as usize;
            let n = part.vertices().len();
            let (a, b) = (part.vertices()[k], part.vertices()[(k + 1) % n]);
            assert!(a == v(1.0, 1.0) || b == v(1.0, 1.0), "{a} {b}");
        }
    }
}

/// A tile outline whose straight runs were dropped as collinear: the diagonal from
/// (121.39, 7.59) to (136.56, 22.76) passes within round-off of the corner (128.98, 15.17).
/// Clipping that ear left the corner nearly on a later part's edge, where the part dropped it
/// as collinear and lost a sliver of area.
#[test]
fn ear_whose_diagonal_grazes_a_corner_is_not_clipped() {
    let t = 7.586924f32;
    let grid = [
        (0, 0),
        (15, 0),
        (15, 1),
        (16, 1),
        (16, 0),
        (17, 0),
        (17, 1),
        (18, 1),
        (18, 3),
        (19, 3),
        (19, 7),
        (18, 7),
        (18, 4),
        (17, 4),
        (17, 2),
        (14, 2),
        (14, 1),
        (0, 1),
    ];
    let outline: Vec<Vec2> = grid
        .iter()
        .map(|&(x, y)| v(x as f32 * t, y as f32 * t))
        .collect();
    let (got, want) = (parts_area(&outline), outline_area(&outline));
    assert!((got - want).abs() <= want * 1.0e-12, "{got} vs {want}");
}

/// A crescent (an arc of 31 points inside an arc of 31, about 0.2 across) that the property
/// test found: a valid simple outline whose ear clipping was forced into a sliver triangle
/// (an outer corner nearly on the line through two inner ones), once refused with
/// `NoValidParts`.
#[test]
fn crescent_of_many_points_is_split() {
    let outline: Vec<Vec2> = [
        (0.16291152, 0.0),
        (0.16345508, 0.024470098),
        (0.1602921, 0.049093436),
        (0.1533909, 0.07330428),
        (0.14280671, 0.09653124),
        (0.12868258, 0.11821067),
        (0.11124829, 0.13780026),
        (0.09081697, 0.1547924),
        (0.067779824, 0.168727),
        (0.042598844, 0.1792036),
        (0.015797563, 0.18589216),
        (-0.012049734, 0.18854263),
        (-0.040330328, 0.1869926),
        (-0.06840655, 0.18117325),
        (-0.09563014, 0.17111312),
        (-0.12135719, 0.15693967),
        (-0.14496331, 0.13887858),
        (-0.16585864, 0.11725066),
        (-0.1835024, 0.092466444),
        (-0.19741657, 0.06501868),
        (-0.20719838, 0.035472613),
        (-0.21253131, 0.0044543813),
        (-0.21319436, -0.027362203),
        (-0.20906903, -0.0592703),
        (-0.20014441, -0.090545736),
        (-0.18651958, -0.120463446),
        (-0.16840357, -0.14831421),
        (-0.14611274, -0.1734214),
        (-0.120065756, -0.19515729),
        (-0.09077582, -0.21295853),
        (-0.05884077, -0.22634037),
        (-0.043012053, -0.16545267),
        (-0.06610679, -0.15508541),
        (-0.08710018, -0.14157438),
        (-0.10557723, -0.12530975),
        (-0.1211916, -0.10673429),
        (-0.1336718, -0.08633177),
        (-0.1428257, -0.06461463),
        (-0.14854276, -0.042111326),
        (-0.15079467, -0.019353582),
        (-0.14963362, 0.0031361268),
        (-0.14518905, 0.02485654),
        (-0.1376624, 0.045338787),
        (-0.1273205, 0.06415651),
        (-0.11448735, 0.08093469),
        (-0.09953496, 0.09535706),
        (-0.0828731, 0.10717188),
        (-0.064938575, 0.11619603),
        (-0.04618401, 0.122317344),
        (-0.027066642, 0.12549518),
        (-0.008037253, 0.12575921),
        (0.010470393, 0.12320661),
        (0.028049445, 0.1179976),
        (0.044328894, 0.11034967),
        (0.058981407, 0.100530475),
        (0.07172982, 0.08884979),
        (0.08235226, 0.07565061),
        (0.09068573, 0.061299685),
        (0.09662812, 0.046177804),
        (0.10013869, 0.030669957),
        (0.10123691, 0.015155707),
        (0.1, 0.0),
    ]
    .iter()
    .map(|&(x, y)| v(x, y))
    .collect();
    let (got, want) = (parts_area(&outline), outline_area(&outline));
    assert!((got - want).abs() <= want * 1.0e-12, "{got} vs {want}");
}
