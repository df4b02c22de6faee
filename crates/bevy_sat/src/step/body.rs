//! [`Body`]: one collider as the step sees it, the record every stage reads.

use std::borrow::Cow;

use bevy::prelude::*;
use prefetch_index::prefetch_index;
use sat_core::{Pose, Shape};

use super::layer_views::LayerViews;
use crate::components::{CollisionLayers, OneWayPlatform};

/// How a body takes part in resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Never pushed (also colliders with neither marker, or both).
    Mighty,
    /// Pushed out of what it overlaps.
    Weak,
}

/// One collider for the duration of a step: everything the stages need, in one place.
///
/// The passes that walk every body (write-back) read only the fields before `shape`: they are
/// laid out first (`repr(C)`) and the record starts on a cache line, so such a pass touches one
/// line per body instead of the whole record. (The broad phase reads none of it: see
/// [`broad::BroadInput`].) The shape starts on the second line, so that a polygon's corners
/// fill the third: a point query reads three lines of a polygon's record (the entity, the
/// shape's kind and length, its corners), not all five.
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct Body {
    /// No data (zero-sized): where the record starts, counted in cache lines, so that
    /// [`Body::prefetch`] can name each line of the record.
    lines: [CacheLine; 0],
    pub entity: Entity,
    /// The entity the step names in pairs, contact flags, [`Contacts`](crate::Contacts) and
    /// events: `entity` itself, but for a piece of a [`TileGrid`](crate::TileGrid), whose
    /// grid's entity stands for it.
    pub name: Entity,
    /// The entity's translation (x, y): after integration, then as resolution moves it.
    pub position: Vec2,
    pub velocity: Vec2,
    pub layers: CollisionLayers,
    /// The smaller side of the body's AABB: how far it may move before it must be swept.
    pub size: f32,
    pub kind: Kind,
    pub sensor: bool,
    /// A Weak body with [`DropThrough`](crate::DropThrough).
    pub drop_through: bool,
    /// Its [`ContactFlags`] were the default ones at the start of the step (nothing to write
    /// back if they still are).
    pub flags_were_default: bool,
    /// Its one-way sides, if it is a one-way platform.
    pub one_way: Option<OneWayPlatform>,
    /// `position` differs from the entity's translation as read (`start`): write-back writes
    /// it. Kept with the fields above, so that write-back reads one cache line per body.
    pub moved: bool,
    /// `velocity` differs from the entity's [`Velocity`](crate::Velocity) as read.
    pub velocity_changed: bool,
    /// The translation at the start of the step.
    pub start: Vec2,
    /// The rotation `(cos, sin)` of the body.
    pub rotation: Vec2,
    /// What it stood on at the end of the last step (from its [`ContactFlags`]).
    pub support: Option<Entity>,
    /// Bit `i` set: edge `i` of the world polygon is covered by a flush neighbour's edge (an
    /// internal face, never a push axis).
    pub internal: u16,
    /// Edges that are internal whatever lies next to them: the faces a
    /// [`TileGrid`](crate::TileGrid) piece shares with the grid's other cells (bits as in
    /// `internal`, which always holds them).
    pub hidden: u16,
    /// The bottom of the shape's AABB, kept as the body moves: Weak pairs are ordered by it,
    /// and the narrow phase would otherwise go over every vertex of both shapes of such a pair.
    pub bottom: f32,
    /// Its parts have layers of their own this step: [`Body::views`] says which parts each
    /// other collider meets (else `views` is left over from an earlier step, and never read).
    pub layered: bool,
    /// The shape placed in the world at `position`.
    pub shape: Shape,
    /// For a Weak body whose folded parts have layers of their own ([`Body::layered`]): which
    /// parts each other collider meets (`layers` then holds the union of the parts' layers).
    pub views: Option<Box<LayerViews>>,
}

/// The unit [`Body::lines`] counts in. Never built: only its size and alignment matter. (Not
/// `Copy`, so that `lines` is always borrowed where it is, never copied somewhere else.)
#[derive(Clone, Debug)]
#[repr(C, align(64))]
pub(crate) struct CacheLine([u8; 64]);

impl Body {
    /// A body holding `shape`, every other field to be filled in.
    pub fn new(entity: Entity, shape: Shape) -> Self {
        Self {
            lines: [],
            entity,
            name: entity,
            position: Vec2::ZERO,
            velocity: Vec2::ZERO,
            layers: CollisionLayers::default(),
            size: 0.0,
            kind: Kind::Mighty,
            sensor: false,
            layered: false,
            drop_through: false,
            flags_were_default: true,
            one_way: None,
            moved: false,
            velocity_changed: false,
            start: Vec2::ZERO,
            rotation: Vec2::X,
            support: None,
            internal: 0,
            hidden: 0,
            bottom: shape.aabb().min.y,
            shape,
            views: None,
        }
    }

    /// Asks the CPU to start loading every cache line of the record, and returns at once: a
    /// hint that changes nothing else. A loop over pairs calls it for the bodies of a pair a
    /// few pairs ahead, so that their records (rarely in cache when there are tens of
    /// thousands) arrive while it works on the current pair, instead of being waited for.
    #[inline(always)]
    pub fn prefetch(&self) {
        for line in 0..size_of::<Body>().div_ceil(size_of::<CacheLine>()) {
            prefetch_index(&self.lines, line);
        }
    }

    /// Asks the CPU to start loading the record's first cache line (the fields before `shape`,
    /// all that write-back reads), and returns at once: a hint, like [`Body::prefetch`].
    #[inline(always)]
    pub fn prefetch_header(&self) {
        prefetch_index(&self.lines, 0);
    }

    /// The body's shape where it was at the start of the step.
    pub fn start_shape(&self) -> Shape {
        let mut shape = self.shape.clone();
        shape.translate(-self.motion());
        shape
    }

    /// The displacement integrated from the velocity this step.
    pub fn motion(&self) -> Vec2 {
        self.position - self.start
    }

    /// The shape `other` meets: the whole shape, but for a body whose parts have layers of
    /// their own ([`Body::views`]), the parts whose layers interact with `other`'s; `None`
    /// when none does.
    #[inline]
    pub fn shape_against(&self, other: &Body) -> Option<Cow<'_, Shape>> {
        match self.views() {
            None => Some(Cow::Borrowed(&self.shape)),
            Some(views) => views.shape(&self.shape, self.position, |layers| {
                layers.interacts_with(&other.layers)
            }),
        }
    }

    /// Its [`Body::views`], if its parts have layers of their own this step.
    #[inline]
    pub fn views(&self) -> Option<&LayerViews> {
        if self.layered {
            self.views.as_deref()
        } else {
            None
        }
    }

    /// [`Body::shape_against`] moved by `offset`.
    pub fn shape_against_moved(&self, other: &Body, offset: Vec2) -> Option<Shape> {
        let mut shape = self.shape_against(other)?.into_owned();
        if offset != Vec2::ZERO {
            shape.translate(offset);
        }
        Some(shape)
    }

    /// [`Body::shape_against`] where the body was at the start of the step.
    pub fn start_shape_against(&self, other: &Body) -> Option<Shape> {
        self.shape_against_moved(other, -self.motion())
    }

    /// The shape a query considering the layers in `mask` sees: the whole shape, but for a
    /// body whose parts have layers of their own, its parts on those layers (`None`: none).
    pub fn shape_on(&self, mask: u32) -> Option<Cow<'_, Shape>> {
        match self.views() {
            None => Some(Cow::Borrowed(&self.shape)),
            Some(views) => views.shape(&self.shape, self.position, |layers| {
                layers.memberships & mask != 0
            }),
        }
    }

    /// Whether the pair is pushed apart at all.
    pub fn resolves_with(&self, other: &Body) -> bool {
        // Without short cuts: one branch, not three that the pairs' mix makes unpredictable.
        !(self.sensor | other.sensor) & ((self.kind == Kind::Weak) | (other.kind == Kind::Weak))
    }

    /// Moves the body (and its world shape) by `offset`. (Resolution also counts the move:
    /// see [`Moves`](super::moves::Moves).)
    pub fn shift(&mut self, offset: Vec2) {
        self.position += offset;
        self.shape.translate(offset);
        self.bottom += offset.y;
        self.moved = true;
    }

    /// Whether resolution may push this body: Weak and not a sensor.
    pub fn pushable(&self) -> bool {
        self.kind == Kind::Weak && !self.sensor
    }
}

/// A body's shape moved by an offset, as each other body meets it (see
/// [`Body::shape_against`]): moved once, when every part meets every body.
pub(crate) struct MovedShape<'a> {
    body: &'a Body,
    offset: Vec2,
    whole: Cow<'a, Shape>,
}

impl<'a> MovedShape<'a> {
    /// `body`'s shape moved by `offset`.
    pub fn new(body: &'a Body, offset: Vec2) -> Self {
        let whole = if offset == Vec2::ZERO {
            Cow::Borrowed(&body.shape)
        } else {
            let mut shape = body.shape.clone();
            shape.translate(offset);
            Cow::Owned(shape)
        };
        Self {
            body,
            offset,
            whole,
        }
    }

    /// The whole shape, moved.
    pub fn whole(&self) -> &Shape {
        &self.whole
    }

    /// The same moved on by `offset`.
    pub fn moved(&self, offset: Vec2) -> Self {
        let mut whole = self.whole.clone().into_owned();
        whole.translate(offset);
        Self {
            body: self.body,
            offset: self.offset + offset,
            whole: Cow::Owned(whole),
        }
    }

    /// The shape `other` meets (see [`Body::shape_against`]), moved.
    pub fn against(&self, other: &Body) -> Option<Cow<'_, Shape>> {
        if self.body.layered {
            self.body
                .shape_against_moved(other, self.offset)
                .map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(&self.whole))
        }
    }
}

/// The pose of a collider's entity: translation, rotation about z, scale in x and y. `None`
/// when the rotation is not finite or turns the x axis out of the plane.
pub(crate) fn pose_of(transform: &Transform) -> Option<Pose> {
    let rotation = if transform.rotation == Quat::IDENTITY {
        Vec2::X // the usual case, without a rotation and a square root per body
    } else {
        (transform.rotation * Vec3::X).truncate().try_normalize()?
    };
    Some(Pose {
        translation: transform.translation.truncate(),
        rotation,
        scale: transform.scale.truncate(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sat_core::{ConvexPolygon, MAX_VERTICES};

    /// The lines a point query reads of a polygon's record: the entity on the first, the
    /// shape's kind on the second, the corners all on the third.
    #[test]
    fn a_point_query_reads_three_lines_of_a_polygon_record() {
        let polygon = ConvexPolygon::regular(MAX_VERTICES, 1.0);
        let body = Body::new(Entity::PLACEHOLDER, polygon.into());
        let line = |address: usize| (address - &raw const body as usize) / size_of::<CacheLine>();
        let Shape::Polygon(polygon) = &body.shape else {
            panic!("a polygon of {MAX_VERTICES} corners is held inline");
        };
        let corners = polygon.vertices().as_ptr_range();
        assert_eq!(polygon.vertices().len(), MAX_VERTICES);
        assert_eq!(line(&raw const body.entity as usize), 0);
        assert_eq!(line(&raw const body.shape as usize), 1);
        assert_eq!(line(corners.start as usize), 2);
        assert_eq!(line(corners.end as usize - 1), 2);
    }
}
