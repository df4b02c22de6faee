//! `ConvexPolygon::new` refuses each kind of bad input with its own error, and normalises good
//! input (winding, collinear points, axes).

use glam::Vec2;
use sat_core::{
    ConvexPolygon, MAX_COORDINATE, MAX_POLYGON_VERTICES, MAX_VERTICES, MIN_SIZE, PolygonError,
};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

#[test]
fn too_few_points() {
    assert_eq!(
        ConvexPolygon::new([]),
        Err(PolygonError::TooFewPoints { count: 0 })
    );
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(1.0, 0.0)]),
        Err(PolygonError::TooFewPoints { count: 2 })
    );
}

#[test]
fn too_many_points() {
    let circle = |n: usize| {
        (0..n).map(move |i| Vec2::from_angle(i as f32 * core::f32::consts::TAU / n as f32))
    };
    assert_eq!(
        ConvexPolygon::new(circle(MAX_POLYGON_VERTICES + 1)),
        Err(PolygonError::TooManyVertices {
            count: MAX_POLYGON_VERTICES + 1,
            max: MAX_POLYGON_VERTICES
        })
    );
    // Past the inline slots the outline is still taken, on the heap.
    let eleven = ConvexPolygon::new(circle(MAX_VERTICES + 3)).unwrap();
    assert_eq!(eleven.vertices().len(), MAX_VERTICES + 3);
}

#[test]
fn non_finite_and_out_of_range() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(
            ConvexPolygon::new([v(0.0, 0.0), v(1.0, 0.0), v(bad, 1.0)]),
            Err(PolygonError::NonFinite { index: 2 })
        );
    }
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(1e30, 0.0), v(0.0, 1.0)]),
        Err(PolygonError::OutOfRange { index: 1 })
    );
}

#[test]
fn duplicate_consecutive_points() {
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(1.0, 0.0), v(1.0, 0.0), v(0.0, 1.0)]),
        Err(PolygonError::DuplicatePoint { index: 2 })
    );
    // The last point repeating the first counts too.
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(1.0, 0.0), v(0.0, 1.0), v(0.0, 0.0)]),
        Err(PolygonError::DuplicatePoint { index: 0 })
    );
}

#[test]
fn zero_and_near_zero_area() {
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(1.0, 1.0), v(2.0, 2.0)]),
        Err(PolygonError::ZeroArea)
    );
    // A sliver half a millionth as thick as it is long.
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(10.0, 0.0), v(10.0, 5e-6), v(0.0, 5e-6)]),
        Err(PolygonError::ZeroArea)
    );
    // Tiny but well-shaped is fine down to MIN_AREA.
    assert!(ConvexPolygon::new([v(0.0, 0.0), v(1e-4, 0.0), v(0.0, 1e-4)]).is_ok());
    assert_eq!(
        ConvexPolygon::new([v(0.0, 0.0), v(1e-6, 0.0), v(0.0, 1e-6)]),
        Err(PolygonError::ZeroArea)
    );
}

#[test]
fn concave_outline_names_the_vertex() {
    // An L shape: the inner corner is point 3.
    let l = [
        v(0.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(1.0, 1.0),
        v(1.0, 2.0),
        v(0.0, 2.0),
    ];
    assert_eq!(
        ConvexPolygon::new(l),
        Err(PolygonError::NotConvex { index: 3 })
    );
    // The same L clockwise: still point 3 of the input.
    let mut reversed = l;
    reversed.reverse();
    assert_eq!(
        ConvexPolygon::new(reversed),
        Err(PolygonError::NotConvex { index: 2 })
    );
}

#[test]
fn bow_tie_is_refused() {
    let bow_tie = [v(0.0, 0.0), v(2.0, 2.0), v(2.0, 0.0), v(0.0, 3.0)];
    assert!(matches!(
        ConvexPolygon::new(bow_tie),
        Err(PolygonError::NotConvex { .. })
    ));
}

#[test]
fn pentagram_winds_twice() {
    let star = (0..5).map(|i| Vec2::from_angle(i as f32 * 2.0 * core::f32::consts::TAU / 5.0));
    assert!(matches!(
        ConvexPolygon::new(star),
        Err(PolygonError::SelfIntersecting { .. })
    ));
}

#[test]
fn clockwise_input_is_reordered() {
    let cw = ConvexPolygon::new([v(0.0, 0.0), v(0.0, 1.0), v(1.0, 1.0), v(1.0, 0.0)]).unwrap();
    assert_eq!(
        cw.vertices(),
        &[v(0.0, 0.0), v(1.0, 0.0), v(1.0, 1.0), v(0.0, 1.0)]
    );
    assert_eq!(cw.normals(), &[Vec2::NEG_Y, Vec2::X, Vec2::Y, Vec2::NEG_X]);
}

#[test]
fn collinear_points_are_removed() {
    let with_midpoints = [
        v(0.0, 0.0),
        v(1.0, 0.0),
        v(2.0, 0.0),
        v(2.0, 1.0),
        v(2.0, 2.0),
        v(0.0, 2.0),
    ];
    let p = ConvexPolygon::new(with_midpoints).unwrap();
    assert_eq!(
        p.vertices(),
        &[v(0.0, 0.0), v(2.0, 0.0), v(2.0, 2.0), v(0.0, 2.0)]
    );
    // A point that doubles back along the edge is a spike, not a collinear point.
    let spike = [v(0.0, 0.0), v(2.0, 0.0), v(1.0, 0.0), v(1.0, 1.0)];
    assert!(ConvexPolygon::new(spike).is_err());
}

#[test]
fn unique_axes_and_cached_values() {
    assert_eq!(ConvexPolygon::rectangle(3.0, 1.0).axes().count(), 2);
    assert_eq!(ConvexPolygon::regular(6, 1.0).axes().count(), 3);
    assert_eq!(ConvexPolygon::regular(8, 1.0).axes().count(), 4);
    assert_eq!(ConvexPolygon::regular(5, 1.0).axes().count(), 5);
    let tri = ConvexPolygon::new([v(0.0, 0.0), v(3.0, 0.0), v(0.0, 3.0)]).unwrap();
    assert_eq!(tri.axes().count(), 3);
    assert!((tri.centroid() - v(1.0, 1.0)).length() < 1e-6);
    assert!((tri.bounding_radius() - v(2.0, -1.0).length()).abs() < 1e-6);
    for (i, n) in tri.normals().iter().enumerate() {
        let edge = tri.vertices()[(i + 1) % 3] - tri.vertices()[i];
        assert!(n.dot(edge).abs() < 1e-6 && (n.length() - 1.0).abs() < 1e-6);
        assert!(
            n.dot(tri.vertices()[(i + 2) % 3] - tri.vertices()[i]) < 0.0,
            "outward"
        );
    }
}

#[test]
fn infallible_constructors_sanitize() {
    for tiny in [0.0, -0.0, f32::NAN, 1e-30] {
        assert_eq!(
            ConvexPolygon::rectangle(tiny, 2.0),
            ConvexPolygon::rectangle(MIN_SIZE, 2.0)
        );
        let g = ConvexPolygon::regular(7, tiny);
        assert_eq!(g, ConvexPolygon::regular(7, MIN_SIZE));
        assert!(
            ConvexPolygon::new(g.vertices().iter().copied()).is_ok(),
            "{tiny}: {g:?}"
        );
    }
    assert_eq!(
        ConvexPolygon::rectangle(-5.0, 2.0),
        ConvexPolygon::rectangle(5.0, 2.0)
    );
    let huge = ConvexPolygon::rectangle(f32::INFINITY, 2.0);
    assert_eq!(huge.vertices()[1], Vec2::new(MAX_COORDINATE / 2.0, -1.0));
    assert_eq!(ConvexPolygon::regular(0, 1.0).vertices().len(), 3);
    assert_eq!(
        ConvexPolygon::regular(1000, 1.0).vertices().len(),
        MAX_VERTICES
    );
}
