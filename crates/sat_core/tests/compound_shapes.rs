//! Compound shapes built and queried with exact values: construction errors, flattening,
//! placement, and a body resting on an L-shaped outline's inner corner.

use glam::Vec2;
use sat_core::{
    Circle, Compound, ConvexPolygon, PolygonError, Pose, Shape, collide, collide_parts,
    convex_decomposition, sweep,
};

fn rectangle(w: f32, h: f32) -> Shape {
    ConvexPolygon::rectangle(w, h).into()
}

fn placed(shape: Shape, x: f32, y: f32) -> Shape {
    shape
        .transformed(&Pose::from_translation(Vec2::new(x, y)))
        .unwrap()
}

#[test]
fn a_compound_needs_parts_and_finite_placements() {
    assert_eq!(Compound::new([]).unwrap_err(), PolygonError::NoParts);
    let bad = [
        (Vec2::ZERO, 0.0, rectangle(1.0, 1.0), 0),
        (Vec2::new(f32::NAN, 0.0), 0.0, rectangle(1.0, 1.0), 0),
    ];
    assert_eq!(
        Compound::new(bad).unwrap_err(),
        PolygonError::PartOutOfRange { index: 1 }
    );
    let spun = [(Vec2::ZERO, f32::INFINITY, rectangle(1.0, 1.0), 0)];
    assert_eq!(
        Compound::new(spun).unwrap_err(),
        PolygonError::PartOutOfRange { index: 0 }
    );
    let far = [(Vec2::new(1.0e18, 0.0), 0.0, rectangle(1.0e18, 1.0), 0)];
    assert_eq!(
        Compound::new(far).unwrap_err(),
        PolygonError::PartOutOfRange { index: 0 }
    );
}

#[test]
fn a_nested_compound_is_flattened_into_its_parts() {
    let pair = Compound::new([
        (Vec2::new(-1.0, 0.0), 0.0, rectangle(2.0, 2.0), 0b10),
        (Vec2::new(1.0, 0.0), 0.0, rectangle(2.0, 2.0), 0b1000),
    ])
    .unwrap();
    let outer = Compound::new([
        (Vec2::new(10.0, 0.0), 0.0, Shape::from(pair), 0),
        (
            Vec2::ZERO,
            0.0,
            Circle::new(Vec2::ZERO, 1.0).unwrap().into(),
            0,
        ),
    ])
    .unwrap();
    assert_eq!(outer.parts().len(), 3);
    assert_eq!(outer.parts()[0].shape.aabb().min, Vec2::new(8.0, -1.0));
    assert_eq!(outer.parts()[1].shape.aabb().max, Vec2::new(12.0, 1.0));
    // The internal edges go with their parts.
    assert_eq!(outer.parts()[0].internal, 0b10);
    assert_eq!(outer.parts()[1].internal, 0b1000);
    assert_eq!(outer.aabb().min, Vec2::new(-1.0, -1.0));
    assert_eq!(outer.aabb().max, Vec2::new(12.0, 1.0));
}

#[test]
fn a_placed_compound_moves_and_turns_every_part() {
    let local = Shape::from(
        Compound::new([
            (Vec2::ZERO, 0.0, rectangle(2.0, 2.0), 0),
            (Vec2::new(0.0, 2.0), 0.0, rectangle(1.0, 2.0), 0b1),
        ])
        .unwrap(),
    );
    let pose = Pose::new(Vec2::new(5.0, 0.0), core::f32::consts::FRAC_PI_2, Vec2::ONE);
    let mut world = local.clone();
    let aabb = local.transform_into(&pose, &mut world).unwrap();
    // Turned a quarter left: the handle now points along -x.
    assert!(
        (aabb.min - Vec2::new(2.0, -1.0)).length() < 1e-5,
        "{aabb:?}"
    );
    assert!((aabb.max - Vec2::new(6.0, 1.0)).length() < 1e-5, "{aabb:?}");
    let Shape::Compound(c) = &world else {
        panic!("a compound stays one");
    };
    assert_eq!(c.parts()[1].internal, 0b1);
    // Moved in place.
    world.translate(Vec2::new(0.0, 3.0));
    assert!((world.aabb().max - Vec2::new(6.0, 4.0)).length() < 1e-5);
    // Mirrored: edge k of a 4-gon comes from local edge (6 - k) mod 4.
    let mirror = Pose::new(Vec2::ZERO, 0.0, Vec2::new(-1.0, 1.0));
    let Shape::Compound(m) = local.transformed(&mirror).unwrap() else {
        panic!("a compound stays one");
    };
    assert_eq!(m.parts()[1].internal, 0b100);
}

/// The L of a concave outline: a floor 10 wide and 1 tall with a wall 1 wide rising to y = 5
/// at its left end. A unit box resting in the inner corner is pushed straight up out of the
/// floor by the depth it sank, and straight right out of the wall: never along the cut
/// between the two parts.
#[test]
fn a_box_in_the_inner_corner_of_an_l_is_pushed_out_of_each_face_alone() {
    let l = convex_decomposition([
        Vec2::new(0.0, 0.0),
        Vec2::new(10.0, 0.0),
        Vec2::new(10.0, 1.0),
        Vec2::new(1.0, 1.0),
        Vec2::new(1.0, 5.0),
        Vec2::new(0.0, 5.0),
    ])
    .unwrap();
    let l = Shape::from(Compound::from_parts(l).unwrap());
    // Sunk 0.25 into the floor, clear of the wall.
    let sunk = placed(rectangle(1.0, 1.0), 1.5 + 0.1, 1.25);
    let c = collide(&sunk, &l).unwrap();
    assert_eq!((c.normal, c.depth), (Vec2::NEG_Y, 0.25));
    // Sunk 0.125 into the wall, resting on the floor exactly.
    let beside = placed(rectangle(1.0, 1.0), 1.375, 1.5);
    let found = collide_parts(&beside, &l, 0.0).unwrap();
    assert_eq!(found.contact.normal, Vec2::NEG_X);
    assert_eq!(found.contact.depth, 0.125);
    // Sliding left along the floor's top at its height, it meets the wall face.
    let sliding = placed(rectangle(1.0, 1.0), 5.0, 1.5);
    let hit = sweep(&sliding, &l, Vec2::new(-8.0, 0.0)).unwrap();
    assert_eq!(hit.toi, 0.0, "touching the floor already");
    assert_eq!(hit.normal, Vec2::NEG_Y);
    let above = placed(rectangle(1.0, 1.0), 5.0, 1.5 + 1e-3);
    let hit = sweep(&above, &l, Vec2::new(-8.0, 0.0)).unwrap();
    assert_eq!(hit.normal, Vec2::NEG_X);
    assert_eq!(hit.toi, 3.5 / 8.0); // its left face from x = 4.5 to the wall at x = 1
}
