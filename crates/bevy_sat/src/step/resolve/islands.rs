//! Islands: which pairs a resolution pass can still change anything in.
//!
//! The pairs resolution pushes apart fall into islands: Weak bodies joined by the Weak pairs it
//! visits (touching or only near), each with its Mighty pairs. A pass reads and moves only the
//! bodies of each pair, and the holds it builds pass from body to body along the pairs, so what
//! a pass does in one island depends on that island alone. An island where a pass moved nothing
//! is where the next pass finds it, with the same holds built the same way: the next pass would
//! move nothing there either, and every pass after it. So each pass after the first visits only
//! the islands the pass before it moved something in, and the result is the same as visiting
//! them all. (The step's passes end when no island moved at all.)
//!
//! The first pass starts from what the narrow phase found, so which islands it can move
//! anything in is known before it runs: those with a pair overlapping deeper than the slop, or
//! with a body already moved (placed at its time of impact). In any other island every pair
//! answers its narrow-phase contact, within the slop, and the pass only takes holds that no
//! push there reads: it moves no body and stops no velocity, so the first pass skips it too.
//! In a crowd at rest against itself, most pairs are in such islands.

use crate::step::pair::{PairContact, Pushes};

/// The islands of one step's pairs, and the last pass that moved something in each.
#[derive(Default, Debug)]
pub(crate) struct Islands {
    /// Union–find over the bodies: each body's parent, a root being its own.
    parent: Vec<u32>,
    /// Per pair (in the order the passes take them), its island: the root body.
    of_pair: Vec<u32>,
    /// Per island (indexed by its root), the last pass that moved something in it (0: none).
    last_move: Vec<u32>,
    /// Per island (indexed by its root), whether the first pass can move anything in it: it
    /// has a pair that [`Islands::join`]'s `may_push` says may push.
    live: Vec<bool>,
    /// The pass under way (counted from 1), or 0 when every pair is visited.
    pass: u32,
    /// Tests only: every pass visits every pair, as without islands.
    #[cfg(test)]
    pub visit_all: bool,
}

impl Islands {
    /// Joins the bodies into islands: the two bodies of each of `weak` (the Weak pairs, in any
    /// order) are in one island; a Mighty–Weak pair of `others` is in the island of its Weak
    /// body. (The other pairs of `others` are never pushed, and visited by no pass.) Indices are
    /// below `bodies`.
    ///
    /// `may_push` tells of a pair whether the first pass may move a body or stop a velocity
    /// visiting it, from what the pair holds: the first pass visits only the islands with such
    /// a pair (see the module's documentation, and [`Islands::is_live`]).
    pub fn join(
        &mut self,
        bodies: usize,
        weak: &[PairContact],
        others: &[PairContact],
        may_push: impl Fn(&PairContact) -> bool,
    ) {
        self.parent.clear();
        self.parent.extend(0..bodies as u32);
        for pair in weak {
            let (a, b) = (self.root(pair.a), self.root(pair.b));
            // The lower index becomes the root: the same islands whatever the order of joining.
            let (low, high) = if a < b { (a, b) } else { (b, a) };
            self.parent[high as usize] = low;
        }
        // Every parent has a lower index than its child, so in index order each body's parent
        // already points at its root: one sweep leaves every body pointing at its own, and a
        // pair finds its island in one read instead of a chain of dependent ones.
        for i in 0..self.parent.len() {
            self.parent[i] = self.parent[self.parent[i] as usize];
        }
        self.live.clear();
        self.live.resize(bodies, false);
        for pair in weak {
            // (Without a branch: most pairs of a crowd at rest may not push.)
            self.live[self.parent[pair.a as usize] as usize] |= may_push(pair);
        }
        for pair in others {
            if let Some(weak_body) = Self::pushed_out_of_mighty(pair) {
                self.live[self.parent[weak_body as usize] as usize] |= may_push(pair);
            }
        }
    }

    /// The Weak body of a pair pushed out of a Mighty one, if it is one.
    fn pushed_out_of_mighty(pair: &PairContact) -> Option<u32> {
        match pair.pushes {
            _ if pair.passing => None,
            Pushes::AOutOfB => Some(pair.a),
            Pushes::BOutOfA => Some(pair.b),
            Pushes::Split | Pushes::Never => None,
        }
    }

    /// Whether the first pass visits `pair` (a Weak pair or a Mighty–Weak pair): whether its
    /// island has a pair that may push (see [`Islands::join`]).
    pub fn is_live(&self, pair: &PairContact) -> bool {
        let body = Self::pushed_out_of_mighty(pair).unwrap_or(pair.a);
        self.live[self.parent[body as usize] as usize]
    }

    /// Numbers the islands' pairs as the passes take them: `pairs`, the pairs of the last
    /// [`Islands::join`] in a new order, and lists the Mighty–Weak pairs (their indices, in
    /// order) in `mighty_weak`. Until [`Islands::start_pass`], every pair is live.
    pub fn index_pairs(&mut self, pairs: &[PairContact], mighty_weak: &mut Vec<u32>) {
        self.of_pair.clear();
        mighty_weak.clear();
        for (k, pair) in pairs.iter().enumerate() {
            let weak_body = match Self::pushed_out_of_mighty(pair) {
                Some(weak_body) => {
                    mighty_weak.push(k as u32);
                    weak_body
                }
                None => pair.a,
            };
            self.of_pair.push(self.parent[weak_body as usize]);
        }
        self.last_move.clear();
        self.last_move.resize(self.parent.len(), 0);
        self.pass = 0;
    }

    /// The root of body `i`'s island, halving the path to it on the way.
    fn root(&mut self, mut i: u32) -> u32 {
        while self.parent[i as usize] != i {
            let grandparent = self.parent[self.parent[i as usize] as usize];
            self.parent[i as usize] = grandparent;
            i = grandparent;
        }
        i
    }

    /// Starts pass `pass` (counted from 1): the first visits every pair, a later one only the
    /// islands the one before it moved something in. Pass 0 visits every pair.
    pub fn start_pass(&mut self, pass: u32) {
        self.pass = pass;
    }

    /// Whether every pass visits every pair (tests only: see `visit_all`).
    fn visits_all(&self) -> bool {
        #[cfg(test)]
        return self.visit_all;
        #[cfg(not(test))]
        false
    }

    /// The pass under way.
    pub fn pass(&self) -> u32 {
        self.pass
    }

    /// The last pass so far that visited pair `k`, while the pass under way is the last: the
    /// one after the last that moved something in its island (the first if none did), or this
    /// one.
    pub fn last_visit(&self, k: usize) -> u32 {
        let all = self.pass == 0 || self.visits_all();
        match self.of_pair.get(k) {
            Some(&island) if !all => (self.last_move[island as usize] + 1).min(self.pass),
            _ => self.pass,
        }
    }

    /// Lists in `out` the pairs of `every` (pair indices, in order) that the pass under way
    /// visits, in order. `out` must hold what this gave for the same `every` in the pass before
    /// (pass 0 lists all of `every`, pass 1 those in live islands): a pass visits only islands
    /// the pass before moved something in, so only islands that pass visited, and its list is
    /// the one to filter, not the whole of `every` (by the last passes, a small part of it).
    pub fn visited(&self, every: impl IntoIterator<Item = u32>, out: &mut Vec<u32>) {
        if self.pass == 0 || self.visits_all() {
            out.clear();
            out.extend(every);
            return;
        }
        if self.pass == 1 {
            out.clear();
            let live = |k: u32| {
                let island = self.of_pair.get(k as usize);
                island.is_none_or(|&i| self.live.get(i as usize).is_none_or(|&l| l))
            };
            out.extend(every.into_iter().filter(|&k| live(k)));
            return;
        }
        // Every index written, the count advanced only past the live ones: no branch to
        // mispredict on islands that come and go in no order.
        let mut count = 0;
        for i in 0..out.len() {
            let k = out[i];
            out[count] = k;
            let moved_last = |island: &u32| {
                let last = self.last_move.get(*island as usize);
                last.is_none_or(|&m| m >= self.pass - 1)
            };
            count += usize::from(self.of_pair.get(k as usize).is_none_or(moved_last));
        }
        out.truncate(count);
    }

    /// Pair `k` moved a body in the pass under way.
    #[inline]
    pub fn moved(&mut self, k: usize) {
        if let Some(&island) = self.of_pair.get(k) {
            self.last_move[island as usize] = self.pass;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::step::moves::Moves;
    use crate::step::resolve::{Resolution, Surroundings, resolve};
    use crate::step::testing::crowd::{REACH, crowd, mighty_boxes, settled_crowd};

    /// Visiting only the islands that moved in the pass before (and, in the first pass, only
    /// those where something can move) gives exactly what visiting every pair gives: the same
    /// positions, velocities and crushed bodies, bit for bit (with polygons, one-way platforms
    /// and pairs passing through them in the mix). On a crowd thrown together, and on the same
    /// crowd a step later, mostly at rest.
    #[test]
    fn skipping_settled_islands_changes_nothing() {
        for seed in [1, 2, 3, 0x9E37_79B9_7F4A_7C15] {
            for settled in [false, true] {
                let (bodies, found, settings) = if settled {
                    settled_crowd(seed)
                } else {
                    crowd(seed)
                };
                let mut outcomes = Vec::new();
                let mut idle = 0;
                for visit_all in [false, true] {
                    let mut bodies = bodies.clone();
                    let mut found = found.clone();
                    let mut res = Resolution::default();
                    res.islands.visit_all = visit_all;
                    let velocities: Vec<_> = bodies.iter().map(|b| b.velocity).collect();
                    let mighty = mighty_boxes(&bodies);
                    let surroundings = Surroundings {
                        reach: REACH,
                        mighty: &mighty,
                    };
                    resolve(
                        &settings,
                        surroundings,
                        &mut bodies,
                        &velocities,
                        &mut found,
                        &mut Moves::default(),
                        &mut res,
                    );
                    let state: Vec<_> = bodies.iter().map(|b| (b.position, b.velocity)).collect();
                    outcomes.push((state, res.crushed.clone()));
                    if !visit_all {
                        let skipped = |p: &&PairContact| !p.unpushed() && !res.islands.is_live(p);
                        idle = found.pairs.iter().filter(skipped).count();
                    }
                }
                assert_eq!(outcomes[0], outcomes[1], "seed {seed}, settled: {settled}");
                let moved = bodies
                    .iter()
                    .zip(&outcomes[0].0)
                    .filter(|(b, s)| b.position != s.0)
                    .count();
                if settled {
                    assert!(
                        idle > 50,
                        "the first pass skips the islands at rest: {idle}"
                    );
                    assert!(moved > 10, "the moving bodies are pushed: {moved}");
                } else {
                    assert!(!outcomes[0].1.is_empty(), "some bodies are crushed");
                    assert!(moved > 50, "the crowd is pushed apart");
                }
            }
        }
    }

    /// The pushed pairs of a crowd as resolution orders them: its bodies' count, the
    /// Mighty–Weak pairs then the Weak pairs, and where the Weak pairs start.
    fn crowd_pairs(seed: u64) -> (usize, Vec<PairContact>, usize) {
        let (bodies, found, _) = crowd(seed);
        let mut ordered: Vec<_> = found
            .pairs
            .iter()
            .filter(|p| !p.unpushed())
            .copied()
            .collect();
        let mighty_weak = ordered.len();
        ordered.extend(&found.weak.records);
        (bodies.len(), ordered, mighty_weak)
    }

    /// Islands are the Weak bodies joined by Weak pairs, each Mighty–Weak pair with its Weak
    /// body; a later pass visits only the islands the pass before it moved something in.
    #[test]
    fn a_pass_visits_the_islands_that_moved() {
        let (bodies, ordered, mighty_weak) = crowd_pairs(7);
        let mut islands = Islands::default();
        let mut listed = Vec::new();
        let (others, weak) = ordered.split_at(mighty_weak);
        islands.join(bodies, weak, others, |_| true);
        islands.index_pairs(&ordered, &mut listed);
        let expected: Vec<u32> = (0..mighty_weak as u32).collect();
        assert_eq!(listed, expected, "the Mighty–Weak pairs are listed");
        let of_pair = islands.of_pair.clone();
        let island = |k: usize| of_pair[k];
        for (k, p) in ordered.iter().enumerate().skip(mighty_weak) {
            for (j, q) in ordered.iter().enumerate() {
                // Both bodies of a Weak pair are Weak: any pair with one of them shares it.
                let shared = [q.a, q.b].iter().any(|i| *i == p.a || *i == p.b);
                if shared {
                    assert_eq!(
                        island(k),
                        island(j),
                        "pairs sharing a Weak body share an island"
                    );
                }
            }
        }
        let mut all = Vec::new();
        islands.start_pass(1);
        islands.visited(0..ordered.len() as u32, &mut all);
        assert_eq!(all.len(), ordered.len(), "the first pass visits every pair");
        let first = mighty_weak; // one Weak pair moves something in pass 1
        islands.moved(first);
        islands.start_pass(2);
        // Each pass's list is filtered from the pass before's.
        let mut second = all.clone();
        islands.visited(0..ordered.len() as u32, &mut second);
        let expected: Vec<u32> = (0..ordered.len() as u32)
            .filter(|&k| island(k as usize) == island(first))
            .collect();
        assert_eq!(second, expected);
        assert!(second.len() < ordered.len());
        islands.start_pass(3);
        islands.visited(0..ordered.len() as u32, &mut second);
        assert!(
            second.is_empty(),
            "nothing moved in pass 2: pass 3 visits nothing"
        );
        islands.start_pass(0);
        islands.visited(0..ordered.len() as u32, &mut second);
        assert_eq!(second.len(), ordered.len(), "pass 0 visits every pair");
    }

    /// The first pass visits only the islands with a pair that may push: here, the island of
    /// one chosen Weak pair.
    #[test]
    fn the_first_pass_visits_the_islands_that_may_push() {
        let (bodies, ordered, mighty_weak) = crowd_pairs(7);
        let chosen = ordered[mighty_weak].entities;
        let mut islands = Islands::default();
        let mut listed = Vec::new();
        let (others, weak) = ordered.split_at(mighty_weak);
        islands.join(bodies, weak, others, |p| p.entities == chosen);
        assert!(islands.is_live(&ordered[mighty_weak]));
        let live = ordered.iter().filter(|p| islands.is_live(p)).count();
        islands.index_pairs(&ordered, &mut listed);
        let of_pair = islands.of_pair.clone();
        let island = |k: usize| of_pair[k];
        islands.start_pass(1);
        let mut first = Vec::new();
        islands.visited(0..ordered.len() as u32, &mut first);
        let expected: Vec<u32> = (0..ordered.len() as u32)
            .filter(|&k| island(k as usize) == island(mighty_weak))
            .collect();
        assert_eq!(first, expected);
        assert_eq!(first.len(), live, "the pairs of live islands");
        assert!(
            first.len() > 1 && first.len() < ordered.len(),
            "the chosen island has other pairs, and is not the only one"
        );
        islands.start_pass(0);
        islands.visited(0..ordered.len() as u32, &mut first);
        assert_eq!(first.len(), ordered.len(), "pass 0 still visits every pair");
    }
}
