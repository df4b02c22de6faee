//! The broad phase returns exactly the brute-force AABB-overlap pairs, on random scenes and
//! after many incremental moves, insertions and removals.

use std::collections::BTreeSet;

use glam::Vec2;
use proptest::prelude::*;
use sat_core::{Aabb, SweepAndPrune};

fn brute_force(boxes: &[Option<Aabb>]) -> BTreeSet<(u32, u32)> {
    let mut pairs = BTreeSet::new();
    for (i, a) in boxes.iter().enumerate() {
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            if let (Some(a), Some(b)) = (a, b)
                && a.overlaps(b)
            {
                pairs.insert((i as u32, j as u32));
            }
        }
    }
    pairs
}

fn as_set(pairs: &[(u32, u32)]) -> BTreeSet<(u32, u32)> {
    let set: BTreeSet<_> = pairs.iter().copied().collect();
    assert_eq!(set.len(), pairs.len(), "a pair was reported twice");
    set
}

fn aabb() -> impl Strategy<Value = Aabb> {
    (
        -100.0f32..100.0,
        -100.0f32..100.0,
        0.0f32..20.0,
        0.0f32..20.0,
    )
        .prop_map(|(x, y, w, h)| Aabb {
            min: Vec2::new(x, y),
            max: Vec2::new(x + w, y + h),
        })
}

#[derive(Clone, Debug)]
enum Change {
    Move(usize, Vec2),
    Remove(usize),
    Insert(usize, Aabb),
}

fn change(n: usize) -> impl Strategy<Value = Change> {
    prop_oneof![
        8 => (0..n, -3.0f32..3.0, -3.0f32..3.0).prop_map(|(i, x, y)| Change::Move(i, Vec2::new(x, y))),
        1 => (0..n).prop_map(Change::Remove),
        1 => (0..n, aabb()).prop_map(|(i, b)| Change::Insert(i, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn matches_brute_force_after_incremental_moves(
        initial in prop::collection::vec(aabb(), 1..120),
        steps in prop::collection::vec(prop::collection::vec(change(120), 0..60), 1..25),
    ) {
        let mut boxes: Vec<Option<Aabb>> = initial.into_iter().map(Some).collect();
        boxes.resize(120, None);
        let mut sap = SweepAndPrune::new();
        for (id, b) in boxes.iter().enumerate() {
            if let Some(b) = b { sap.set(id as u32, *b).unwrap(); }
        }
        let mut out = Vec::new();
        sap.pairs_into(&mut out);
        prop_assert_eq!(as_set(&out), brute_force(&boxes));
        for changes in steps {
            for c in changes {
                match c {
                    Change::Move(i, d) => if let Some(b) = &mut boxes[i] {
                        *b = Aabb { min: b.min + d, max: b.max + d };
                        sap.set(i as u32, *b).unwrap();
                    },
                    Change::Remove(i) => {
                        prop_assert_eq!(sap.remove(i as u32), boxes[i].take());
                    }
                    Change::Insert(i, b) => {
                        boxes[i] = Some(b);
                        sap.set(i as u32, b).unwrap();
                    }
                }
            }
            sap.pairs_into(&mut out);
            prop_assert_eq!(as_set(&out), brute_force(&boxes));
            prop_assert_eq!(sap.len(), boxes.iter().flatten().count());
        }
    }
}

#[test]
fn dense_scene_of_thousands_matches_brute_force() {
    // A stress-scene-like layout: 3,000 boxes of 8..16 in a 1,300-unit square, moved 200 steps.
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32
    };
    let n = 3000;
    let half = (n as f32).sqrt() * 12.0;
    let mut boxes: Vec<Option<Aabb>> = Vec::new();
    let mut velocity = Vec::new();
    for _ in 0..n {
        let c = Vec2::new(next() * 2.0 - 1.0, next() * 2.0 - 1.0) * half;
        let s = Vec2::new(8.0 + next() * 8.0, 8.0 + next() * 8.0) * 0.5;
        boxes.push(Some(Aabb {
            min: c - s,
            max: c + s,
        }));
        velocity.push(
            Vec2::from_angle(next() * core::f32::consts::TAU) * (20.0 + next() * 60.0) / 60.0,
        );
    }
    let mut sap = SweepAndPrune::new();
    let mut out = Vec::new();
    for step in 0..200 {
        for (id, (b, v)) in boxes.iter_mut().zip(&velocity).enumerate() {
            let b = b.as_mut().unwrap();
            *b = Aabb {
                min: b.min + *v,
                max: b.max + *v,
            };
            sap.set(id as u32, *b).unwrap();
        }
        sap.pairs_into(&mut out);
        if step % 50 == 0 || step == 199 {
            assert_eq!(as_set(&out), brute_force(&boxes), "step {step}");
        }
    }
    assert!(!out.is_empty());
}

#[test]
fn pair_order_is_deterministic() {
    let make = || {
        let mut sap = SweepAndPrune::new();
        for i in 0..50u32 {
            let x = (i * 7 % 13) as f32;
            let y = (i * 5 % 11) as f32;
            sap.set(
                i,
                Aabb {
                    min: Vec2::new(x, y),
                    max: Vec2::new(x + 3.0, y + 3.0),
                },
            )
            .unwrap();
        }
        sap.pairs()
    };
    assert_eq!(make(), make());
}

#[test]
fn refuses_bad_boxes_and_ids_without_changing_anything() {
    use sat_core::BroadPhaseError;
    let unit = Aabb {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    };
    let mut sap = SweepAndPrune::new();
    let inverted = Aabb {
        min: Vec2::ONE,
        max: Vec2::ZERO,
    };
    assert_eq!(sap.set(0, inverted), Err(BroadPhaseError::InvalidAabb));
    let nan = Aabb {
        min: Vec2::new(f32::NAN, 0.0),
        max: Vec2::ONE,
    };
    assert_eq!(sap.set(0, nan), Err(BroadPhaseError::InvalidAabb));
    let limit = SweepAndPrune::ID_STEP;
    for id in [limit, limit + 1, SweepAndPrune::MAX_ID, u32::MAX] {
        assert_eq!(
            sap.set(id, unit),
            Err(BroadPhaseError::IdOutOfRange { id, limit })
        );
    }
    assert!(sap.is_empty());
    assert_eq!(sap.set(3, unit), Ok(()));
    assert_eq!(sap.len(), 1);
}

/// An id far past the ones in use, which would size the table to it (gigabytes near 2^31), is
/// refused with an error naming the limit; the table does not grow.
#[test]
fn an_id_far_past_the_ids_in_use_is_refused_without_allocating() {
    use sat_core::BroadPhaseError;
    let unit = Aabb {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    };
    let mut sap = SweepAndPrune::new();
    sap.set(0, unit).unwrap();
    let far = (1u32 << 31) - 1;
    let limit = 1 + SweepAndPrune::ID_STEP;
    assert_eq!(sap.id_limit(), limit);
    assert_eq!(
        sap.set(far, unit),
        Err(BroadPhaseError::IdOutOfRange { id: far, limit })
    );
    assert_eq!(sap.get(far), None);
    assert_eq!(
        sap.id_limit(),
        limit,
        "the refused id did not grow the table"
    );
    assert_eq!(sap.len(), 1);
    // The last id below the limit is fine, and moves the limit on by as much.
    assert_eq!(sap.set(limit - 1, unit), Ok(()));
    assert_eq!(sap.id_limit(), 2 * limit - 1);
    assert_eq!(sap.pairs(), vec![(0, limit - 1)]);
    // The limit never passes MAX_ID.
    assert!(sap.id_limit() <= SweepAndPrune::MAX_ID);
    assert!(
        BroadPhaseError::IdOutOfRange { id: far, limit }
            .to_string()
            .contains(&format!("{far}"))
    );
}

/// Slots handed out as the plugin's broad phase hands them out (the next new slot is the
/// number handed out so far, freed slots are reused, last freed first) are never refused,
/// also after every box was removed and the broad phase emptied itself in `pairs`.
#[test]
fn dense_slots_with_reuse_are_always_accepted() {
    let unit = |i: u32| Aabb {
        min: Vec2::new(i as f32 * 2.0, 0.0),
        max: Vec2::new(i as f32 * 2.0 + 1.0, 1.0),
    };
    let mut sap = SweepAndPrune::new();
    let (mut handed_out, mut free) = (0u32, Vec::new());
    let mut live = Vec::new();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..200 {
        // Spawn a few, despawn a few; every 50 rounds, despawn all.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        for _ in 0..(state % 7) {
            let slot = free.pop().unwrap_or_else(|| {
                handed_out += 1;
                handed_out - 1
            });
            live.push(slot);
        }
        let despawn = if round % 50 == 49 {
            live.len()
        } else {
            (state >> 8) as usize % 4
        };
        for _ in 0..despawn.min(live.len()) {
            let slot = live.swap_remove((state >> 16) as usize % live.len());
            sap.remove(slot);
            free.push(slot);
        }
        for &slot in &live {
            assert_eq!(sap.set(slot, unit(slot)), Ok(()), "slot {slot}");
        }
        sap.pairs();
    }
    assert!(handed_out > 50);
    // The same past ID_STEP slots: every one of them set, all removed, the broad phase emptied
    // by `pairs`, and the highest slot handed out again.
    let mut sap = SweepAndPrune::new();
    let count = SweepAndPrune::ID_STEP + 10;
    for slot in 0..count {
        assert_eq!(sap.set(slot, unit(0)), Ok(()), "slot {slot}");
    }
    for slot in 0..count {
        sap.remove(slot);
    }
    assert!(sap.pairs().is_empty());
    assert_eq!(sap.set(count - 1, unit(0)), Ok(()));
}

/// After `clear`, ids count from the start again: the limit is back to `ID_STEP`.
#[test]
fn clear_forgets_the_ids() {
    let unit = Aabb {
        min: Vec2::ZERO,
        max: Vec2::ONE,
    };
    let mut sap = SweepAndPrune::new();
    sap.set(SweepAndPrune::ID_STEP - 1, unit).unwrap();
    assert_eq!(sap.id_limit(), 2 * SweepAndPrune::ID_STEP);
    sap.clear();
    assert_eq!(sap.id_limit(), SweepAndPrune::ID_STEP);
    assert!(sap.set(SweepAndPrune::ID_STEP, unit).is_err());
}
