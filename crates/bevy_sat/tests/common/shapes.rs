//! The shapes beyond polygons of up to 8 corners, each with an independent description of its
//! outline (core points swept by a disc of `radius`) for the expected figures: capsule, rounded
//! box, segment and a polygon of more than 8 corners.

use bevy::prelude::*;
use bevy_sat::geometry::Shape;
use bevy_sat::prelude::*;

/// A collider and its outline as the points of its core and the radius of the disc swept
/// along them, in the collider's local frame.
pub struct Case {
    pub name: &'static str,
    pub collider: ConvexCollider,
    pub core: Vec<Vec2>,
    pub radius: f32,
}

impl Case {
    /// How far the outline reaches from the body's centre along unit `direction` (body not
    /// rotated), from the core points and the radius alone.
    pub fn reach(&self, direction: Vec2) -> f32 {
        let core = self
            .core
            .iter()
            .map(|p| p.dot(direction))
            .fold(f32::NEG_INFINITY, f32::max);
        core + self.radius
    }

    /// Distance from the centre down to the lowest point.
    pub fn below(&self) -> f32 {
        self.reach(Vec2::NEG_Y)
    }

    /// Distance from the centre up to the highest point.
    pub fn above(&self) -> f32 {
        self.reach(Vec2::Y)
    }
}

/// A convex 16-gon 24 wide and 20 tall with integer corners: flat top and bottom from x = -6
/// to 6, flat sides at x = ±12.
pub fn sixteen_gon_points() -> Vec<Vec2> {
    let right = [
        (6.0, -10.0),
        (9.0, -9.0),
        (11.0, -6.0),
        (12.0, -2.0),
        (12.0, 2.0),
        (11.0, 6.0),
        (9.0, 9.0),
        (6.0, 10.0),
    ]
    .map(|(x, y)| Vec2::new(x, y));
    let left = right.map(|p| -p);
    right.into_iter().chain(left).collect()
}

/// The four shapes upright, as characters and crates are: a capsule (radius 6, 24 tall), a
/// rounded box (16 × 12, corners of radius 3), a flat segment 16 long and the 16-gon.
pub fn upright() -> Vec<Case> {
    let gon = ConvexCollider::convex_polygon(sixteen_gon_points()).expect("a valid 16-gon");
    assert!(matches!(gon.shape(), Shape::Large(_)), "{gon:?}");
    vec![
        Case {
            name: "capsule",
            collider: ConvexCollider::capsule(6.0, 12.0),
            core: vec![Vec2::new(0.0, -6.0), Vec2::new(0.0, 6.0)],
            radius: 6.0,
        },
        Case {
            name: "rounded box",
            collider: ConvexCollider::round_rectangle(16.0, 12.0, 3.0),
            core: vec![
                Vec2::new(-5.0, -3.0),
                Vec2::new(5.0, -3.0),
                Vec2::new(5.0, 3.0),
                Vec2::new(-5.0, 3.0),
            ],
            radius: 3.0,
        },
        Case {
            name: "segment",
            collider: ConvexCollider::segment(Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0)),
            core: vec![Vec2::new(-8.0, 0.0), Vec2::new(8.0, 0.0)],
            radius: 0.0,
        },
        Case {
            name: "16-gon",
            collider: gon,
            core: sixteen_gon_points(),
            radius: 0.0,
        },
    ]
}

/// A platform 60 wide built from each shape: its name, collider, rotation, the height of its
/// top above its centre (flat over at least x in [-24, 24]) and which of its local sides is
/// its top: a capsule lying along x (turned a quarter turn, so its local +x is up), a rounded
/// box, a bare segment and a flat 10-gon.
pub fn platforms() -> Vec<(&'static str, ConvexCollider, Quat, f32, OneWayPlatform)> {
    let ten_gon = [
        (-24.0, -3.0),
        (24.0, -3.0),
        (28.0, -2.0),
        (30.0, 0.0),
        (28.0, 2.0),
        (24.0, 3.0),
        (-24.0, 3.0),
        (-28.0, 2.0),
        (-30.0, 0.0),
        (-28.0, -2.0),
    ]
    .map(|(x, y)| Vec2::new(x, y));
    let ten_gon = ConvexCollider::convex_polygon(ten_gon).expect("a valid 10-gon");
    assert!(matches!(ten_gon.shape(), Shape::Large(_)));
    let quarter = Quat::from_rotation_z(core::f32::consts::FRAC_PI_2);
    vec![
        (
            "capsule",
            ConvexCollider::capsule(3.0, 54.0),
            quarter,
            3.0,
            OneWayPlatform {
                top: false,
                right: true,
                ..OneWayPlatform::TOP
            },
        ),
        (
            "rounded box",
            ConvexCollider::round_rectangle(60.0, 6.0, 2.0),
            Quat::IDENTITY,
            3.0,
            OneWayPlatform::TOP,
        ),
        (
            "segment",
            ConvexCollider::segment(Vec2::new(-30.0, 0.0), Vec2::new(30.0, 0.0)),
            Quat::IDENTITY,
            0.0,
            OneWayPlatform::TOP,
        ),
        ("10-gon", ten_gon, Quat::IDENTITY, 3.0, OneWayPlatform::TOP),
    ]
}
