//! The components a game puts on its entities: [`ConvexCollider`], [`Velocity`], the body kinds
//! [`Mighty`] and [`Weak`], [`Sensor`], [`CollisionLayers`], [`OneWayPlatform`], and the
//! [`RealVelocity`] the plugin writes back.

use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::prelude::*;
use sat_core::{Circle, ConvexPolygon, MIN_SIZE, PolygonError, Shape};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::contact_flags::ContactFlags;

/// A convex shape in the entity's local space. It follows the entity's [`Transform`]:
/// translation, rotation about z, and scale (x and y).
///
/// Colliders are placed from the entity's own `Transform`, so collider entities should be
/// root entities (no parent), as physics bodies usually are.
///
/// It can be saved in and loaded from Bevy scenes (through reflection: it is serialized as its
/// shape). The shape is validated again when loaded: a scene whose polygon is not convex, or
/// has a non-finite coordinate, fails to load with an error instead of giving a broken shape.
///
/// ```
/// # use bevy_sat::prelude::*; use bevy::prelude::*;
/// let crate_box = ConvexCollider::rectangle(16.0, 16.0);
/// let coin = ConvexCollider::circle(6.0);
/// let ramp = ConvexCollider::convex_polygon([
///     Vec2::new(0.0, 0.0), Vec2::new(64.0, 0.0), Vec2::new(64.0, 32.0),
/// ]).expect("a valid triangle");
/// let bad = ConvexCollider::convex_polygon([Vec2::ZERO, Vec2::X]);
/// assert!(bad.is_err());
/// ```
#[derive(Component, Reflect, Clone, Debug, PartialEq)]
#[reflect(opaque)]
#[reflect(Component, Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
#[require(Transform)]
pub struct ConvexCollider {
    shape: Shape,
}

impl Default for ConvexCollider {
    /// A 1 × 1 square.
    fn default() -> Self {
        Self::rectangle(1.0, 1.0)
    }
}

impl ConvexCollider {
    /// An axis-aligned rectangle centred on the entity. Sizes are sanitized as by
    /// [`ConvexPolygon::rectangle`].
    pub fn rectangle(width: f32, height: f32) -> Self {
        Self::from(ConvexPolygon::rectangle(width, height))
    }

    /// A regular polygon centred on the entity, first vertex on +x. Sanitized as by
    /// [`ConvexPolygon::regular`].
    pub fn regular_polygon(sides: usize, radius: f32) -> Self {
        Self::from(ConvexPolygon::regular(sides, radius))
    }

    /// A circle centred on the entity. A radius that is not a positive finite number is
    /// replaced by [`MIN_SIZE`] (a warning-free, infallible constructor like the others; use
    /// [`Circle::new`] and `ConvexCollider::from` to have it refused).
    pub fn circle(radius: f32) -> Self {
        let radius = if radius.is_finite() && radius > 0.0 {
            radius.min(sat_core::MAX_COORDINATE)
        } else {
            MIN_SIZE
        };
        let circle = Circle::new(Vec2::ZERO, radius)
            .or_else(|_| Circle::new(Vec2::ZERO, MIN_SIZE))
            .map(Shape::from);
        Self {
            shape: circle.unwrap_or_else(|_| ConvexPolygon::rectangle(MIN_SIZE, MIN_SIZE).into()),
        }
    }

    /// A convex polygon from its outline in local space, in either winding, of up to
    /// [`MAX_POLYGON_VERTICES`](sat_core::MAX_POLYGON_VERTICES) (256) points: held inline when
    /// its corners fit in [`MAX_VERTICES`](sat_core::MAX_VERTICES), else as a
    /// [`LargePolygon`](sat_core::LargePolygon) (see [`Shape::polygon`]).
    ///
    /// ```
    /// # use bevy_sat::prelude::*; use bevy::prelude::*;
    /// let round_platform = ConvexCollider::convex_polygon(
    ///     (0..24).map(|i| Vec2::from_angle(i as f32 * std::f32::consts::TAU / 24.0) * 40.0),
    /// ).expect("a valid 24-gon");
    /// assert_eq!(round_platform.shape().aabb().max.x, 40.0);
    /// ```
    ///
    /// # Errors
    /// The [`PolygonError`] of [`Shape::polygon`]: among others
    /// [`PolygonError::TooManyVertices`] above 256 points.
    pub fn convex_polygon(points: impl IntoIterator<Item = Vec2>) -> Result<Self, PolygonError> {
        Shape::polygon(points).map(Self::from)
    }

    /// The local shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }
}

/// Serialized as its [`Shape`].
impl Serialize for ConvexCollider {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.shape.serialize(serializer)
    }
}

/// Deserialized as a [`Shape`], which validates it again (convex, finite, not degenerate).
impl<'de> Deserialize<'de> for ConvexCollider {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Shape::deserialize(deserializer).map(Self::from)
    }
}

impl From<Shape> for ConvexCollider {
    fn from(shape: Shape) -> Self {
        Self { shape }
    }
}

impl From<ConvexPolygon> for ConvexCollider {
    fn from(polygon: ConvexPolygon) -> Self {
        Self::from(Shape::from(polygon))
    }
}

impl From<Circle> for ConvexCollider {
    fn from(circle: Circle) -> Self {
        Self::from(Shape::from(circle))
    }
}

/// Linear velocity in units per second. The plugin moves the entity's [`Transform`] by
/// `velocity * dt` every step, and removes the part of a [`Weak`] body's velocity that points
/// into a surface it was pushed out of (so it slides along it).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref, DerefMut)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
pub struct Velocity(pub Vec2);

/// How fast a [`Weak`] body really moved in the last step, in units per second: its
/// displacement over the step (its own motion, pushes, carrying by a platform, floor
/// snapping) divided by the step's duration. A game adds it to the Weak bodies it wants it for
/// (or to every one: `app.register_required_components::<Weak, RealVelocity>()`), and the
/// plugin writes it after every step; zero before the first step and after a step of no time.
/// Bodies without it cost write-back nothing.
///
/// Unlike [`Velocity`], which is what the body is asked to do (and what the step leaves of it
/// after stopping it against surfaces), this is what it did: a body walking into a wall has a
/// `Velocity` into the wall until the step removes it, but a real velocity of zero; a body
/// riding a platform has a `Velocity` of zero and the platform's real velocity.
///
/// ```
/// # use bevy_sat::prelude::*; use bevy::prelude::*;
/// fn speedometer(bodies: Query<&RealVelocity, With<Weak>>) {
///     for real in &bodies {
///         info!("moving at {} units/s", real.length());
///     }
/// }
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Deref)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
pub struct RealVelocity(pub(crate) Vec2);

impl RealVelocity {
    /// The velocity, in units per second.
    pub fn get(&self) -> Vec2 {
        self.0
    }
}

/// A body that is never pushed by a collision: walls, floors, platforms. It may still move by
/// its own [`Velocity`], and then pushes the [`Weak`] bodies in its way.
///
/// Who pushes whom:
///
/// | pair | resolution |
/// | --- | --- |
/// | Mighty – Weak | the Weak body moves by the whole minimum translation vector |
/// | Weak – Weak | each moves half, unless one is held by something Mighty (then the other moves all of it) |
/// | Mighty – Mighty | not even detected, unless one is a [`Sensor`] |
/// | anything – [`Sensor`] | detected and reported, never resolved |
///
/// `Mighty` and `Weak` exclude each other: inserting one removes the other, so the one inserted
/// last wins (`commands.entity(wall).insert(Weak)` turns a wall into a Weak body). A bundle
/// that holds both, spawned or inserted on an entity that has neither, keeps the one listed
/// first: `(Mighty, Weak)` gives a Mighty body. A Weak body turned Mighty keeps its
/// [`Velocity`] and moves on at it (a Mighty body feels no gravity and is never pushed): set it
/// to zero to leave a wall where the body is.
///
/// The body takes part in collision once it has a [`ConvexCollider`]. It does not get one by
/// default (a forgotten collider would be an invisible wall): a body without one is left out,
/// and reported once with a warning. A collider with neither kind is treated as `Mighty`
/// (static scenery), with a warning once.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
#[component(on_insert = Mighty::on_insert)]
#[require(Transform)]
pub struct Mighty;

impl Mighty {
    /// Removes [`Weak`] from the entity (see [`settle_kind`]).
    fn on_insert(world: DeferredWorld, context: HookContext) {
        settle_kind::<Mighty, Weak>(world, context);
    }
}

/// A body that is pushed out of whatever it overlaps (see [`Mighty`] for the table). Weak
/// bodies are affected by [`SatConfig::gravity`](crate::SatConfig::gravity) and get
/// [`ContactFlags`] after every step.
///
/// `Weak` and [`Mighty`] exclude each other: inserting one removes the other, so the one
/// inserted last wins; a bundle that holds both, spawned or inserted on an entity that has
/// neither, keeps the one listed first: `(Weak, Mighty)` gives a Weak body. Like `Mighty`, it
/// collides once it has a [`ConvexCollider`], which it does not get by default; a body without
/// one is left out, and reported once with a warning.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
#[component(on_insert = Weak::on_insert)]
#[require(Transform, Velocity, ContactFlags)]
pub struct Weak;

impl Weak {
    /// Removes [`Mighty`] from the entity (see [`settle_kind`]), and tells the step the body is
    /// new: with no contact flags yet, it has to find what the body stands on by itself.
    fn on_insert(mut world: DeferredWorld, context: HookContext) {
        if let Some(mut state) = world.get_resource_mut::<crate::step::StepState>() {
            state.prepare.new_weak(context.entity);
        }
        settle_kind::<Weak, Mighty>(world, context);
    }
}

/// The insert hook of a body kind `Kept`: when the entity also has the other kind `Removed`,
/// queues a command that removes `Removed` if the entity still has `Kept` then.
///
/// Hooks cannot change an entity's components, so the removal is a command; Bevy applies the
/// commands a hook queues as soon as the insertion that ran it is over. When one bundle brings
/// both kinds, both hooks run before either command, in the order the bundle lists them: the
/// first command removes the other kind, and the second finds its own kind gone and does
/// nothing. So the kind listed first is kept.
fn settle_kind<Kept: Component, Removed: Component>(
    mut world: DeferredWorld,
    context: HookContext,
) {
    let entity = context.entity;
    if !world.entity(entity).contains::<Removed>() {
        return;
    }
    world.commands().queue(move |world: &mut World| {
        if let Ok(mut body) = world.get_entity_mut(entity)
            && body.contains::<Kept>()
        {
            body.remove::<Removed>();
        }
    });
}

/// A collider that detects and reports overlaps (events and [`Contacts`](crate::Contacts)) but
/// is never resolved: it neither pushes nor is pushed. Coins, triggers, hazards. Like the body
/// kinds, it needs a [`ConvexCollider`], which it does not get by default; a sensor without one
/// is left out, and reported once with a warning.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
#[require(Transform)]
pub struct Sensor;

/// Which layers a collider is on (`memberships`) and which layers it interacts with
/// (`filters`). Two colliders interact only when each one's memberships meet the other's
/// filters; pairs that don't are neither reported nor resolved. Without this component a
/// collider is on every layer and interacts with every layer.
///
/// ```
/// # use bevy_sat::prelude::*;
/// const PLAYER: u32 = 1 << 0;
/// const ENEMY: u32 = 1 << 1;
/// const WORLD: u32 = 1 << 2;
/// let player = CollisionLayers::new(PLAYER, ENEMY | WORLD);
/// let ghost = CollisionLayers::new(ENEMY, PLAYER); // passes through the world
/// let wall = CollisionLayers::new(WORLD, CollisionLayers::ALL);
/// assert!(player.interacts_with(&ghost) && player.interacts_with(&wall));
/// assert!(!ghost.interacts_with(&wall));
/// ```
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
pub struct CollisionLayers {
    /// Bit mask of the layers this collider is on.
    pub memberships: u32,
    /// Bit mask of the layers this collider interacts with.
    pub filters: u32,
}

impl CollisionLayers {
    /// Every layer.
    pub const ALL: u32 = u32::MAX;

    /// Layers from the two masks.
    pub const fn new(memberships: u32, filters: u32) -> Self {
        Self {
            memberships,
            filters,
        }
    }

    /// Whether the two colliders interact (each one's memberships meet the other's filters).
    pub const fn interacts_with(&self, other: &CollisionLayers) -> bool {
        self.memberships & other.filters != 0 && other.memberships & self.filters != 0
    }
}

impl Default for CollisionLayers {
    /// On every layer, interacting with every layer.
    fn default() -> Self {
        Self::new(Self::ALL, Self::ALL)
    }
}

/// Marks a [`Weak`] body as moving top-down (Godot's floating motion mode): nothing it
/// touches is a floor, wall or ceiling, so its [`ContactFlags`] stay the default ones (read
/// what it touches from [`Contacts`](crate::Contacts) or
/// [`CollidingEntities`](crate::CollidingEntities)); it is never carried, snapped onto a
/// floor nor stepped up a ledge, and it is pushed out of slopes along their normal like out
/// of any surface. Every surface it meets, it slides along at constant speed: the motion and
/// velocity it loses into the surface are turned along it, so it covers its whole distance
/// each step. Moving within 15° of straight into a surface, it stops against it instead of
/// racing sideways. Gravity still applies: a top-down game leaves
/// [`SatConfig::gravity`](crate::SatConfig::gravity) at zero.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
pub struct Floating;

/// Makes a [`Mighty`] body passable from some sides: a body passes through from an open side
/// and lands on a solid one. Which side a body comes from is judged from where both were at the
/// start of the step (so it holds at any speed and when the platform itself moves), and a body
/// that starts the step overlapping the platform passes through until it is clear.
///
/// Sides are in the platform's local frame (they turn with it). The default is the classic
/// jump-through platform: solid from above only.
///
/// A body passing through overlaps the platform (it is in [`Contacts`](crate::Contacts) and gets
/// collision events) but is not pushed and gets no [`ContactFlags`] from it. Give a Weak body
/// [`DropThrough`] to let it fall through a platform it stands on.
///
/// Floor snapping ([`SatConfig::floor_snap_distance`](crate::SatConfig::floor_snap_distance))
/// judges the same way: it pulls a body that started the step above a platform's top down onto
/// it (a corner too), and never pulls a body into a platform from outside.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
#[require(Mighty)]
pub struct OneWayPlatform {
    /// Solid when met from above (local +y).
    pub top: bool,
    /// Solid when met from below (local -y).
    pub bottom: bool,
    /// Solid when met from the left (local -x).
    pub left: bool,
    /// Solid when met from the right (local +x).
    pub right: bool,
}

impl Default for OneWayPlatform {
    /// Solid from above only.
    fn default() -> Self {
        Self::TOP
    }
}

impl OneWayPlatform {
    /// Solid from above only: the jump-through platform.
    pub const TOP: Self = Self {
        top: true,
        bottom: false,
        left: false,
        right: false,
    };

    /// The outward directions of the solid sides, in the platform's local frame.
    pub(crate) fn solid_directions(&self) -> impl Iterator<Item = Vec2> + use<> {
        [
            (self.top, Vec2::Y),
            (self.bottom, Vec2::NEG_Y),
            (self.left, Vec2::NEG_X),
            (self.right, Vec2::X),
        ]
        .into_iter()
        .filter_map(|(solid, direction)| solid.then_some(direction))
    }
}

/// Put on a [`Weak`] body to let it drop through the [`OneWayPlatform`]s it stands on or
/// overlaps (down + jump in a platformer). The plugin removes it once the body touches no
/// one-way platform any more.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Component, Clone, Debug, PartialEq, Default)]
pub struct DropThrough;
