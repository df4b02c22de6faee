//! A Weak body whose folded solid parts have [`CollisionLayers`] of their own: which of its
//! parts each other collider meets. The parts are sorted into groups of equal layers (the
//! body's own collider is group 0); a collider meets the groups whose layers interact with its
//! own, and the body's shape against it is the compound of those groups' parts, with the faces
//! those parts share hidden as in the whole body. Every such compound is built when the body
//! is folded, so the stages only pick one.
//!
//! The body's record keeps the union of the groups' layers, so that the broad phase and every
//! check of layers let through each pair some part takes part in; the stages then ask
//! [`Body::shape_against`](super::body::Body::shape_against) for the shape to use. Between two
//! such bodies, each one's parts are chosen by the other's union: a part that interacts with
//! some part of the other body meets every part the other shows it.

use std::borrow::Cow;

use bevy::prelude::*;
use sat_core::{Compound, Shape};

use super::fold_seams::{FoldPart, mark_shared_faces};
use crate::components::CollisionLayers;

/// How many groups of layers a body's parts may form: the parts of further ones take the
/// body's layers (a warning says so). With `n` groups, `2^n - 2` compounds are built.
pub(crate) const MAX_GROUPS: usize = 4;

/// The groups of a folded Weak body's parts and the compound each set of them forms.
#[derive(Clone, Debug)]
pub(crate) struct LayerViews {
    /// Each group's layers: group 0 holds the body's own collider.
    groups: Vec<CollisionLayers>,
    /// Per part of the body's compound, in its order: the part's group.
    part_groups: Vec<u8>,
    /// Where the body was when the compounds were built: they are moved from there to where
    /// the body is now when asked for.
    origin: Vec2,
    /// For each set of groups that is neither empty nor all of them (bit `g`: group `g`), at
    /// index `set - 1`: the compound of those groups' parts, placed at `origin`.
    views: Vec<Option<Shape>>,
}

impl LayerViews {
    /// The views of a body at `origin` made of `parts` (placed, with their own internal faces
    /// only), `part_groups` giving each part's group and `groups` each group's layers. `None`
    /// when there is a single group (the body's shape serves every collider).
    pub fn new(
        groups: &[CollisionLayers],
        parts: &[FoldPart],
        part_groups: &[u8],
        origin: Vec2,
    ) -> Option<Self> {
        if groups.len() < 2 || groups.len() > MAX_GROUPS || part_groups.len() != parts.len() {
            return None;
        }
        let all = (1u32 << groups.len()) - 1;
        let views = (1..all)
            .map(|set| {
                let mut chosen: Vec<FoldPart> = parts
                    .iter()
                    .zip(part_groups)
                    .filter(|(_, group)| set & (1 << **group) != 0)
                    .map(|(part, _)| part.clone())
                    .collect();
                mark_shared_faces(&mut chosen);
                let parts = chosen
                    .into_iter()
                    .map(|part| (Vec2::ZERO, 0.0, part.shape, part.internal));
                Compound::new(parts).ok().map(Shape::Compound)
            })
            .collect();
        Some(Self {
            groups: groups.to_vec(),
            part_groups: part_groups.to_vec(),
            origin,
            views,
        })
    }

    /// The union of the groups' layers: a collider interacting with some part interacts
    /// with it.
    pub fn union(&self) -> CollisionLayers {
        self.groups
            .iter()
            .fold(CollisionLayers::new(0, 0), |all, g| {
                CollisionLayers::new(all.memberships | g.memberships, all.filters | g.filters)
            })
    }

    /// The set of groups (bit `g`: group `g`) that `accepts` accepts.
    fn set(&self, accepts: impl Fn(&CollisionLayers) -> bool) -> u32 {
        let mut set = 0;
        for (g, layers) in self.groups.iter().enumerate() {
            if accepts(layers) {
                set |= 1 << g;
            }
        }
        set
    }

    /// The body's shape (`whole`, the body now at `position`) made of the groups `accepts`
    /// accepts: `whole` itself when it accepts every group, `None` when it accepts none.
    pub fn shape<'a>(
        &self,
        whole: &'a Shape,
        position: Vec2,
        accepts: impl Fn(&CollisionLayers) -> bool,
    ) -> Option<Cow<'a, Shape>> {
        let set = self.set(accepts);
        let all = (1u32 << self.groups.len()) - 1;
        if set == all {
            return Some(Cow::Borrowed(whole));
        }
        let mut view = self.views.get(set.checked_sub(1)? as usize)?.clone()?;
        view.translate(position - self.origin);
        Some(Cow::Owned(view))
    }

    /// Whether part `part` of the body's compound interacts with a collider of `layers`.
    pub fn part_meets(&self, part: usize, layers: &CollisionLayers) -> bool {
        let group = self.part_groups.get(part).copied().unwrap_or(0);
        self.groups
            .get(usize::from(group))
            .is_none_or(|own| own.interacts_with(layers))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sat_core::{ConvexPolygon, Pose};

    fn square(x: f32, source: u32) -> FoldPart {
        let pose = Pose::from_translation(Vec2::new(x, 0.0));
        FoldPart {
            shape: Shape::from(ConvexPolygon::rectangle(1.0, 1.0))
                .transformed(&pose)
                .unwrap(),
            internal: 0,
            source,
        }
    }

    /// Two flush squares of two groups: each collider meets the squares of the groups it
    /// interacts with, moved along with the body, with the face between them open when the
    /// other square is not there.
    #[test]
    fn a_collider_meets_only_the_parts_its_layers_interact_with() {
        let walls = CollisionLayers::new(1, 1);
        let bullets = CollisionLayers::new(2, 2);
        let parts = [square(0.0, 0), square(1.0, 1)];
        let views =
            LayerViews::new(&[walls, bullets], &parts, &[0, 1], Vec2::ZERO).expect("two groups");
        assert_eq!(views.union(), CollisionLayers::new(3, 3));
        let whole = square(0.0, 0).shape;
        let wall = views.shape(&whole, Vec2::new(5.0, 0.0), |l| l.interacts_with(&walls));
        let Some(Cow::Owned(Shape::Compound(wall))) = wall else {
            panic!("the wall meets the first square alone: {wall:?}");
        };
        assert_eq!(wall.parts().len(), 1);
        assert_eq!(wall.parts()[0].internal, 0);
        assert_eq!(wall.aabb().min, Vec2::new(4.5, -0.5));
        let everything = CollisionLayers::default();
        let all = views.shape(&whole, Vec2::ZERO, |l| l.interacts_with(&everything));
        assert!(matches!(all, Some(Cow::Borrowed(_))));
        let nothing = CollisionLayers::new(4, 4);
        assert!(
            views
                .shape(&whole, Vec2::ZERO, |l| l.interacts_with(&nothing))
                .is_none()
        );
        assert!(views.part_meets(0, &walls) && !views.part_meets(1, &walls));
    }
}
