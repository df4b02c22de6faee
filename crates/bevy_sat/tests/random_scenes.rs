//! Random scenes of Weak bodies (boxes, regular polygons, circles) among Mighty platforms
//! (static, moving, one-way), under random gravity: after every step, every position and
//! velocity is finite, and no Weak body overlaps a Mighty one deeper than the resolution slop
//! (a tenth of the contact margin), except a body the step reported `Crushed` between Mighty
//! bodies including that one, or a body overlapping a one-way platform it does not stand on
//! (passing through it).
//!
//! The overlap depth is measured by an independent f64 separating-axis test on shapes placed
//! from each entity's `Transform`, not by the library's own queries.
//!
//! Bodies may start anywhere, inside Mighty bodies and each other too: a body pushed out of
//! one Mighty body, however far, must not end inside another unless it is crushed.

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_sat::geometry::Shape;
use bevy_sat::prelude::*;
use proptest::prelude::*;

/// A local shape, in whole units so that shrunk cases read easily.
#[derive(Clone, Copy, Debug)]
enum Form {
    Box { w: u8, h: u8 },
    Polygon { sides: u8, r: u8 },
    Circle { r: u8 },
}

impl Form {
    fn collider(self) -> ConvexCollider {
        match self {
            Form::Box { w, h } => ConvexCollider::rectangle(f32::from(w), f32::from(h)),
            Form::Polygon { sides, r } => {
                ConvexCollider::regular_polygon(usize::from(sides), f32::from(r))
            }
            Form::Circle { r } => ConvexCollider::circle(f32::from(r)),
        }
    }
}

/// A Weak body: shape, position, turn in degrees, velocity.
#[derive(Clone, Copy, Debug)]
struct WeakBody {
    form: Form,
    at: (i16, i16),
    degrees: i16,
    velocity: (i16, i16),
}

/// A Mighty platform: shape, position, turn in degrees, velocity (zero: static), one-way
/// (solid from its local top only).
#[derive(Clone, Copy, Debug)]
struct MightyBody {
    form: Form,
    at: (i16, i16),
    degrees: i16,
    velocity: (i16, i16),
    one_way: bool,
}

#[derive(Clone, Debug)]
struct Scene {
    gravity: i16,
    steps: usize,
    mighty: Vec<MightyBody>,
    weak: Vec<WeakBody>,
    /// Bodies spawned later, before the given step (counted from 0), with the others.
    later: Option<(usize, Vec<MightyBody>, Vec<WeakBody>)>,
}

fn weak_form() -> impl Strategy<Value = Form> {
    prop_oneof![
        (2u8..=20, 2u8..=20).prop_map(|(w, h)| Form::Box { w, h }),
        (3u8..=8, 2u8..=10).prop_map(|(sides, r)| Form::Polygon { sides, r }),
        (1u8..=10).prop_map(|r| Form::Circle { r }),
    ]
}

fn mighty_form() -> impl Strategy<Value = Form> {
    prop_oneof![
        3 => (10u8..=200, 4u8..=40).prop_map(|(w, h)| Form::Box { w, h }),
        1 => (3u8..=8, 5u8..=40).prop_map(|(sides, r)| Form::Polygon { sides, r }),
    ]
}

fn weak_body() -> impl Strategy<Value = WeakBody> {
    (
        weak_form(),
        (-100i16..=100, -100i16..=100),
        prop_oneof![Just(0i16), -180i16..=180],
        (-300i16..=300, -300i16..=300),
    )
        .prop_map(|(form, at, degrees, velocity)| WeakBody {
            form,
            at,
            degrees,
            velocity,
        })
}

fn mighty_body() -> impl Strategy<Value = MightyBody> {
    (
        mighty_form(),
        (-100i16..=100, -100i16..=100),
        prop_oneof![3 => Just(0i16), 1 => -60i16..=60],
        prop_oneof![
            2 => Just((0i16, 0i16)),
            1 => (-120i16..=120, -120i16..=120),
        ],
        prop::bool::weighted(0.3),
    )
        .prop_map(|(form, at, degrees, velocity, one_way)| MightyBody {
            form,
            at,
            // A one-way platform lies level: the check tells a body passing through it from one
            // resting on it by whether it stands on it, which holds for a floor-like solid side.
            degrees: if one_way { 0 } else { degrees },
            velocity,
            one_way,
        })
}

fn scene() -> impl Strategy<Value = Scene> {
    (
        prop_oneof![Just(0i16), -1200i16..=0, -300i16..=300],
        60usize..=120,
        prop::collection::vec(mighty_body(), 2..=10),
        prop::collection::vec(weak_body(), 3..=30),
    )
        .prop_map(|(gravity, steps, mighty, weak)| Scene {
            gravity,
            steps,
            mighty,
            weak,
            later: None,
        })
}

/// The `Crushed` messages of the last step.
#[derive(Resource, Default)]
struct CrushedThisStep(Vec<Crushed>);

fn record_crushed(mut log: ResMut<CrushedThisStep>, mut crushed: MessageReader<Crushed>) {
    log.0.extend(crushed.read().cloned());
}

fn transform(at: (i16, i16), degrees: i16) -> Transform {
    Transform::from_xyz(f32::from(at.0), f32::from(at.1), 0.0)
        .with_rotation(Quat::from_rotation_z(f32::from(degrees).to_radians()))
}

fn velocity(v: (i16, i16)) -> Velocity {
    Velocity(Vec2::new(f32::from(v.0), f32::from(v.1)))
}

/// A shape placed in the world, in f64.
#[derive(Debug)]
enum World64 {
    Polygon(Vec<[f64; 2]>),
    Circle([f64; 2], f64),
}

/// `collider`'s local shape placed by `transform` (scale, then turn about z, then translate),
/// in f64 from the f32 inputs.
fn placed(collider: &ConvexCollider, transform: &Transform) -> World64 {
    let q = transform.rotation;
    // A turn about z: q = (0, 0, sin(θ/2), cos(θ/2)); cos θ and sin θ from it, renormalized.
    let (s, c) = (f64::from(q.z), f64::from(q.w));
    let (cos, sin) = (c * c - s * s, 2.0 * s * c);
    let norm = (cos * cos + sin * sin).sqrt();
    let (cos, sin) = (cos / norm, sin / norm);
    let (tx, ty) = (
        f64::from(transform.translation.x),
        f64::from(transform.translation.y),
    );
    let (sx, sy) = (f64::from(transform.scale.x), f64::from(transform.scale.y));
    let place = |p: Vec2| {
        let (x, y) = (f64::from(p.x) * sx, f64::from(p.y) * sy);
        [tx + cos * x - sin * y, ty + sin * x + cos * y]
    };
    match collider.shape() {
        Shape::Polygon(p) => World64::Polygon(p.vertices().iter().map(|&v| place(v)).collect()),
        Shape::Circle(c) => World64::Circle(
            place(c.center()),
            f64::from(c.radius()) * sx.abs().max(sy.abs()),
        ),
        _ => unreachable!("these tests make only polygons and circles"),
    }
}

fn dot(a: [f64; 2], b: [f64; 2]) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn unit(v: [f64; 2]) -> Option<[f64; 2]> {
    let len = dot(v, v).sqrt();
    (len > 0.0).then(|| [v[0] / len, v[1] / len])
}

fn project(shape: &World64, axis: [f64; 2]) -> (f64, f64) {
    match shape {
        World64::Polygon(points) => points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &p| {
            let d = dot(p, axis);
            (lo.min(d), hi.max(d))
        }),
        World64::Circle(c, r) => (dot(*c, axis) - r, dot(*c, axis) + r),
    }
}

/// The edge normals of a polygon (either winding: only the line of each matters).
fn edge_axes(points: &[[f64; 2]]) -> impl Iterator<Item = [f64; 2]> + '_ {
    (0..points.len()).filter_map(|i| {
        let (a, b) = (points[i], points[(i + 1) % points.len()]);
        unit([b[1] - a[1], a[0] - b[0]])
    })
}

/// How deep the two convex shapes overlap: the least overlap of their projections over the
/// separating-axis candidates (edge normals; for a circle, the direction to the other shape's
/// nearest vertex, or between the centres). Zero or less when they do not overlap.
fn depth(a: &World64, b: &World64) -> f64 {
    let mut axes: Vec<[f64; 2]> = Vec::new();
    let circle_axes = |c: [f64; 2], other: &World64, axes: &mut Vec<[f64; 2]>| match other {
        World64::Polygon(points) => {
            let nearest = points
                .iter()
                .min_by(|p, q| {
                    let d = |v: &[f64; 2]| (v[0] - c[0]).powi(2) + (v[1] - c[1]).powi(2);
                    d(p).total_cmp(&d(q))
                })
                .copied();
            axes.extend(nearest.and_then(|p| unit([p[0] - c[0], p[1] - c[1]])));
        }
        World64::Circle(o, _) => axes.extend(unit([o[0] - c[0], o[1] - c[1]])),
    };
    for (shape, other) in [(a, b), (b, a)] {
        match shape {
            World64::Polygon(points) => axes.extend(edge_axes(points)),
            World64::Circle(c, _) => circle_axes(*c, other, &mut axes),
        }
    }
    if axes.is_empty() {
        // Two concentric circles.
        if let (World64::Circle(_, r), World64::Circle(_, s)) = (a, b) {
            return r + s;
        }
    }
    axes.iter()
        .map(|&axis| {
            let (a_lo, a_hi) = project(a, axis);
            let (b_lo, b_hi) = project(b, axis);
            a_hi.min(b_hi) - a_lo.max(b_lo)
        })
        .fold(f64::INFINITY, f64::min)
}

/// The largest coordinate of a placed shape, for the round-off allowance.
fn extent(shape: &World64) -> f64 {
    match shape {
        World64::Polygon(points) => points
            .iter()
            .map(|p| p[0].abs().max(p[1].abs()))
            .fold(0.0, f64::max),
        World64::Circle(c, r) => c[0].abs().max(c[1].abs()) + r,
    }
}

/// Runs `scene` and checks the properties after every step.
/// The bodies of a scene spawned so far, and their forms.
#[derive(Default)]
struct Spawned {
    mighty: Vec<(Entity, bool)>,
    weak: Vec<Entity>,
    mighty_forms: Vec<Form>,
    weak_forms: Vec<Form>,
}

impl Spawned {
    fn spawn(&mut self, app: &mut App, mighty: &[MightyBody], weak: &[WeakBody]) {
        let world = app.world_mut();
        for m in mighty {
            let mut entity = world.spawn((m.form.collider(), Mighty, transform(m.at, m.degrees)));
            // Still scenery has no velocity at all, as a game's level does.
            if m.velocity != (0, 0) {
                entity.insert(velocity(m.velocity));
            }
            if m.one_way {
                entity.insert(OneWayPlatform::TOP);
            }
            self.mighty.push((entity.id(), m.one_way));
            self.mighty_forms.push(m.form);
        }
        for w in weak {
            let entity = world.spawn((
                w.form.collider(),
                Weak,
                transform(w.at, w.degrees),
                velocity(w.velocity),
            ));
            self.weak.push(entity.id());
            self.weak_forms.push(w.form);
        }
    }
}

fn check_scene(scene: &Scene) -> Result<(), TestCaseError> {
    let config = SatConfig {
        gravity: Vec2::new(0.0, f32::from(scene.gravity)),
        ..default()
    };
    // Documented: resolution leaves overlaps up to a tenth of the contact margin.
    let slop = f64::from(config.contact_margin) / 10.0;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, SatPlugin::default()))
        .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
        .insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(config)
        .init_resource::<CrushedThisStep>()
        .add_systems(FixedPostUpdate, record_crushed.after(SatSystems::Writeback));
    app.update();
    let mut spawned = Spawned::default();
    spawned.spawn(&mut app, &scene.mighty, &scene.weak);
    for step in 0..scene.steps {
        if let Some((_, m_list, w_list)) = scene.later.as_ref().filter(|l| l.0 == step) {
            spawned.spawn(&mut app, m_list, w_list);
        }
        app.update();
        let Spawned {
            mighty,
            weak,
            mighty_forms,
            weak_forms,
        } = &spawned;
        let crushed = std::mem::take(&mut app.world_mut().resource_mut::<CrushedThisStep>().0);
        let world = app.world();
        let state = |e: Entity| {
            let t = *world.get::<Transform>(e).expect("alive");
            let v = world.get::<Velocity>(e).map_or(Vec2::ZERO, |v| v.0);
            let c = world
                .get::<ConvexCollider>(e)
                .expect("has a collider")
                .clone();
            (t, v, c)
        };
        for (kind, list) in [
            ("Mighty", mighty.iter().map(|m| m.0).collect::<Vec<_>>()),
            ("Weak", weak.clone()),
        ] {
            for (i, &e) in list.iter().enumerate() {
                let (t, v, _) = state(e);
                prop_assert!(
                    t.translation.is_finite() && t.rotation.is_finite() && v.is_finite(),
                    "step {step}: {kind} body {i} at {} moving {v}",
                    t.translation
                );
            }
        }
        for (i, &w) in weak.iter().enumerate() {
            let (wt, wv, wc) = state(w);
            let w_shape = placed(&wc, &wt);
            let standing_on = world.get::<ContactFlags>(w).and_then(|f| f.standing_on());
            for (j, &(m, one_way)) in mighty.iter().enumerate() {
                let (mt, _, mc) = state(m);
                let m_shape = placed(&mc, &mt);
                let d = depth(&w_shape, &m_shape);
                // The library works in f32: a few ulps of the largest coordinate on top of the
                // slop.
                let round_off =
                    4.0 * f64::from(f32::EPSILON) * extent(&w_shape).max(extent(&m_shape));
                if d <= slop + round_off {
                    continue;
                }
                // Passing through a one-way platform: overlapping it without standing on it.
                if one_way && standing_on != Some(m) {
                    continue;
                }
                let crushed_by = crushed
                    .iter()
                    .any(|c| c.body == w && c.crushers.contains(&m));
                prop_assert!(
                    crushed_by,
                    "step {step}: Weak body {i} ({:?} at {}, moving {wv}) overlaps Mighty body \
                     {j} ({:?} at {}) by {d} (allowed {slop} + {round_off}), and no Crushed \
                     names the pair (this step's: {:?})",
                    weak_forms[i],
                    wt.translation.truncate(),
                    mighty_forms[j],
                    mt.translation.truncate(),
                    crushed
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        // Each case is a whole simulation: keep the shrinking of a failure to minutes.
        max_shrink_iters: 400,
        ..ProptestConfig::default()
    })]

    #[test]
    fn weak_bodies_never_end_a_step_inside_mighty_ones(scene in scene()) {
        check_scene(&scene)?;
    }
}

/// A case the property test found: a body crushed against a one-way platform rising under
/// it, whose way back this step leads through the platform, stays crushed (reported) rather
/// than being freed inside the platform.
#[test]
fn a_body_whose_way_back_leads_through_a_one_way_platform_stays_crushed() {
    let mighty = |w, h, at, velocity, one_way| MightyBody {
        form: Form::Box { w, h },
        at,
        degrees: 0,
        velocity,
        one_way,
    };
    let weak = |w, h, at, velocity| WeakBody {
        form: Form::Box { w, h },
        at,
        degrees: 0,
        velocity,
    };
    let scene = Scene {
        gravity: 0,
        steps: 71,
        mighty: vec![
            mighty(62, 4, (23, 0), (0, 0), false),
            mighty(10, 4, (0, 0), (0, 0), false),
            mighty(107, 4, (54, -71), (-82, 100), true),
        ],
        weak: vec![
            weak(12, 4, (-58, -5), (234, -148)),
            weak(2, 2, (0, 0), (0, 0)),
            weak(2, 2, (0, 0), (0, 0)),
        ],
        later: None,
    };
    check_scene(&scene).unwrap();
}

/// The f64 reference itself, on cases whose depth is known.
#[test]
fn reference_depth_on_known_cases() {
    let square = |x: f64, y: f64, half: f64| {
        World64::Polygon(vec![
            [x - half, y - half],
            [x + half, y - half],
            [x + half, y + half],
            [x - half, y + half],
        ])
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(
        depth(&square(0.0, 0.0, 1.0), &square(1.5, 0.2, 1.0)),
        0.5
    ));
    assert!(close(
        depth(&square(0.0, 0.0, 1.0), &square(3.0, 0.0, 1.0)),
        -1.0
    ));
    // A circle over a face, and off a corner: the corner (1, 1) is √0.5 from the centre
    // (1.5, 1.5), within the radius 1 by 1 - √0.5.
    let ball = |x: f64, y: f64| World64::Circle([x, y], 1.0);
    assert!(close(depth(&ball(0.0, 1.5), &square(0.0, 0.0, 1.0)), 0.5));
    assert!(close(
        depth(&square(0.0, 0.0, 1.0), &ball(1.5, 1.5)),
        1.0 - 0.5f64.sqrt()
    ));
    assert!(close(depth(&ball(0.0, 0.0), &ball(1.5, 0.0)), 0.5));
    // Placement: a 2 × 4 box scaled to 2 × 2, turned 90° and moved: corners at (9 or 11,
    // -1 or 1).
    let collider = ConvexCollider::rectangle(2.0, 4.0);
    let t = Transform::from_xyz(10.0, 0.0, 0.0)
        .with_rotation(Quat::from_rotation_z(core::f32::consts::FRAC_PI_2))
        .with_scale(Vec3::new(1.0, 0.5, 1.0));
    let World64::Polygon(points) = placed(&collider, &t) else {
        panic!("a polygon")
    };
    for p in points {
        let off = |x: f64| (x.abs() - 1.0).abs() < 1e-6;
        assert!(off(p[0] - 10.0) && off(p[1]), "{p:?}");
    }
}

/// A minimal case the property test found: a triangle placed 3 deep in a floor, under the
/// overhang of a leaning Mighty box it does not touch, nor comes near enough to for the narrow
/// phase to pair them (nothing moves: the step's reach is zero). The floor pushes it straight up
/// (a floor-like push), 2 deep into the overhang. It must end the step outside both, or be
/// reported crushed between them.
#[test]
fn weak_body_pushed_out_of_a_floor_into_an_overhang_ends_outside_or_crushed() {
    let overhang = MightyBody {
        form: Form::Box { w: 10, h: 25 },
        at: (-48, -17),
        degrees: -43,
        velocity: (0, 0),
        one_way: false,
    };
    let floor = MightyBody {
        form: Form::Box { w: 84, h: 11 },
        at: (0, -24),
        degrees: 0,
        velocity: (0, 0),
        one_way: false,
    };
    let triangle = WeakBody {
        form: Form::Polygon { sides: 3, r: 3 },
        at: (-39, -20),
        degrees: 0,
        velocity: (0, 0),
    };
    let scene = Scene {
        gravity: 0,
        steps: 1,
        mighty: vec![overhang, floor],
        weak: vec![triangle],
        later: None,
    };
    if let Err(e) = check_scene(&scene) {
        panic!("{e}");
    }
}

/// The overhang case twelve times over, side by side, in one step: more bodies pushed beyond
/// the reach than the last check looks for by testing every Mighty body, so the later ones are
/// found through the still Mighty bodies sorted. Twelve more copies arrive elsewhere a few
/// steps later: the sorted list must know them. Each body ends outside both, or crushed.
#[test]
fn many_bodies_pushed_into_overhangs_in_one_step_end_outside_or_crushed() {
    let copies = |y: i16| {
        let mut mighty = Vec::new();
        let mut weak = Vec::new();
        for copy in 0..12i16 {
            let x = 200 * copy - 1200;
            mighty.push(MightyBody {
                form: Form::Box { w: 10, h: 25 },
                at: (x - 48, y - 17),
                degrees: -43,
                velocity: (0, 0),
                one_way: false,
            });
            mighty.push(MightyBody {
                form: Form::Box { w: 84, h: 11 },
                at: (x, y - 24),
                degrees: 0,
                velocity: (0, 0),
                one_way: false,
            });
            weak.push(WeakBody {
                form: Form::Polygon { sides: 3, r: 3 },
                at: (x - 39, y - 20),
                degrees: 0,
                velocity: (0, 0),
            });
        }
        (mighty, weak)
    };
    let (mighty, weak) = copies(0);
    let (later_mighty, later_weak) = copies(300);
    let scene = Scene {
        gravity: 0,
        steps: 5,
        mighty,
        weak,
        later: Some((3, later_mighty, later_weak)),
    };
    if let Err(e) = check_scene(&scene) {
        panic!("{e}");
    }
}

/// A minimal case the property test found: a flat box slides down a Mighty plank leaning at 45°
/// onto a moving one-way platform, into the wedge between them. The platform pushes it up into
/// the plank and the plank pushes it back down into the platform, each push at exactly 45° to
/// the other's hold (so neither is refused), which halves the overlap in each pass: the last
/// pass left the box 0.004 deep in the platform, standing on it. It must end each step on the
/// platform and out of the plank (or crushed).
#[test]
fn weak_body_sliding_into_a_wedge_of_two_mighty_bodies_ends_outside_both() {
    let plank = MightyBody {
        form: Form::Box { w: 73, h: 4 },
        at: (0, 0),
        degrees: -45,
        velocity: (0, 0),
        one_way: false,
    };
    let platform = MightyBody {
        form: Form::Box { w: 99, h: 4 },
        at: (6, -20),
        degrees: 0,
        velocity: (-70, 0),
        one_way: true,
    };
    let slider = WeakBody {
        form: Form::Box { w: 12, h: 2 },
        at: (-2, -8),
        degrees: 0,
        velocity: (79, 0),
    };
    let scene = Scene {
        gravity: 0,
        steps: 20,
        mighty: vec![plank, platform],
        weak: vec![slider],
        later: None,
    };
    if let Err(e) = check_scene(&scene) {
        panic!("{e}");
    }
}

/// A case the property test found while the last check was being written: a tilted box too
/// tall for the corridor between two Mighty floors is crushed between them, next to a post. A
/// crushed body stays where the passes left it (it must not be moved out of the corridor
/// sideways, into the post); wherever it ends, every Mighty body it is in is named.
#[test]
fn weak_body_crushed_in_a_corridor_is_not_squeezed_into_a_mighty_body_beside_it() {
    let mighty = |w, h, at, degrees, velocity| MightyBody {
        form: Form::Box { w, h },
        at,
        degrees,
        velocity,
        one_way: false,
    };
    let weak = |form, at, degrees, velocity| WeakBody {
        form,
        at,
        degrees,
        velocity,
    };
    let scene = Scene {
        gravity: -775,
        steps: 60,
        mighty: vec![
            mighty(10, 17, (-65, 3), -15, (0, 0)),
            mighty(183, 9, (-80, 24), 0, (0, 0)),
            mighty(10, 27, (-47, 61), -1, (-7, 78)),
            mighty(99, 9, (-6, 7), 0, (0, 0)),
        ],
        weak: vec![
            weak(Form::Polygon { sides: 3, r: 2 }, (-3, 30), -132, (0, 0)),
            weak(Form::Box { w: 7, h: 8 }, (71, 5), 36, (-157, 135)),
            weak(Form::Box { w: 5, h: 2 }, (0, 86), 0, (-4, 0)),
        ],
        later: None,
    };
    if let Err(e) = check_scene(&scene) {
        panic!("{e}");
    }
}

/// A diamond resting on the top corner of a box, with a platform rising through that box
/// below it: floor snapping pulled it down onto the platform, into the box's corner (2.96
/// deep at step 57). A snap that would sink a body into a Mighty body it touches is not made.
#[test]
fn a_snap_never_sinks_a_body_into_a_corner_it_rests_on() {
    let still = |form, at| MightyBody {
        form,
        at,
        degrees: 0,
        velocity: (0, 0),
        one_way: false,
    };
    let weak = |form, at, velocity| WeakBody {
        form,
        at,
        degrees: 0,
        velocity,
    };
    let scene = Scene {
        gravity: -1,
        steps: 60,
        mighty: vec![
            still(Form::Box { w: 27, h: 40 }, (4, -60)),
            still(Form::Box { w: 73, h: 12 }, (0, -14)),
            MightyBody {
                velocity: (-10, 38),
                ..still(Form::Box { w: 102, h: 17 }, (67, -89))
            },
        ],
        weak: vec![
            weak(Form::Box { w: 8, h: 4 }, (45, -50), (18, 150)),
            weak(Form::Polygon { sides: 8, r: 7 }, (28, -43), (0, -146)),
            weak(Form::Polygon { sides: 4, r: 10 }, (75, -40), (-128, -145)),
            weak(Form::Box { w: 2, h: 2 }, (29, 0), (0, 0)),
        ],
        later: None,
    };
    if let Err(e) = check_scene(&scene) {
        panic!("{e}");
    }
}
