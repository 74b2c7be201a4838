//! The candidate list (`legal_actions`, [`battlemat_core::ActionList::Candidates`]): every
//! decision that is a finite choice in full; moves, pushes and BITS points as a useful menu
//! (SDE-MOVE, SDE-SHOOT, SDE-B, SDE-S, SDE-CHARGE, SDE-RING.1, SDE-SAFARI.2). Every
//! candidate is judged by [`SdEra::plan`] before it is listed.

use crate::combat::Question;
use crate::data::{BASE_RADIUS, MissionKind, STICK, Special};
use crate::events::{Action, Aim, Aims, Target, WINDS};
use crate::state::{Choice, Phase, SdEra, UnitId};
use battlemat_geom::table::{Point, Ticks, toward};

impl SdEra {
    /// The candidate list: every decision that is a finite choice is listed in full; moves,
    /// pushes and BITS points are candidates (`ActionList::Candidates`).
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(160);
        self.legal_into(&mut out);
        out
    }

    /// [`SdEra::legal`] into `out`, replacing what it held.
    pub fn legal_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match &self.now.phase {
            Phase::Over
            | Phase::TurnOrder { .. }
            | Phase::BreakIn { .. }
            | Phase::BombRoll { .. }
            | Phase::AnimalRecover { .. }
            | Phase::AnimalCharge { .. }
            | Phase::EggOpens { .. }
            | Phase::EggBomb { .. }
            | Phase::OrderRoll { .. }
            | Phase::ZoneCard { .. }
            | Phase::BlipReveal { .. }
            | Phase::MineRoll { .. }
            | Phase::EnemyDraw { .. }
            | Phase::CaptureRoll { .. } => {}
            Phase::Draft { .. } => {
                for (key, _) in &self.fixed.chart {
                    out.push(Action::Pick { kind: key.clone() });
                }
                out.push(Action::Done);
            }
            Phase::Deploy { seat } => self.deploy_candidates(*seat, out),
            Phase::StartHidden { seat } => {
                for u in self.ids() {
                    if self.unit(u).owner == Some(*seat) {
                        out.push(Action::Hide { unit: u });
                    }
                }
                out.push(Action::Done);
            }
            Phase::Turn | Phase::FastMoves => {
                // Every candidate is judged as it is made.
                self.turn_candidates(None, out);
                return;
            }
            Phase::Fight(f) => match self.fight_question(f) {
                Some((_, Question::Reroll(side))) => {
                    let pool = if side { &f.att } else { &f.def };
                    for face in 1..=6u8 {
                        if pool.faces[face as usize - 1] > 0 {
                            out.push(Action::Reroll { face });
                        }
                    }
                    out.push(Action::Keep);
                }
                Some((_, Question::Cheer(side))) => {
                    let u = match (side, f.striker) {
                        (true, crate::state::Striker::Unit(u)) => u,
                        _ => f.target,
                    };
                    for dice in 0..=self.unit(u).cheer {
                        out.push(Action::AddCheer { dice });
                    }
                }
                None => {}
            },
            Phase::Choose(c) => match c {
                Choice::Push { .. } => {
                    for wind in 0..WINDS.len() as u8 {
                        out.push(Action::Push {
                            toward: Target::Heading { wind, dist: STICK },
                        });
                    }
                    out.push(Action::Pass);
                }
                Choice::TakeHill { .. } => {
                    out.push(Action::Take);
                    out.push(Action::Stay);
                }
                Choice::EarnedCheer { .. } => {
                    for u in self.ids() {
                        out.push(Action::Place { target: u });
                    }
                }
                Choice::Draws { .. } => {
                    for count in 0..=2 {
                        out.push(Action::Draw { count });
                    }
                }
                Choice::GiveUp { .. } => {
                    for u in self.ids() {
                        if self.unit(u).captured.is_some() {
                            out.push(Action::GiveUp { unit: u });
                        }
                    }
                }
                Choice::FreeAttack { unit, .. } => {
                    for t in self.ids() {
                        out.push(Action::Melee {
                            unit: *unit,
                            target: t,
                        });
                        out.push(Action::Shoot {
                            unit: *unit,
                            aims: Aims::One(Aim { target: t, dice: 0 }),
                            from: None,
                        });
                    }
                    out.push(Action::Pass);
                }
            },
        }
        out.retain(|a| self.plan(a).is_ok());
    }

    /// Before play (SDE-RING.1; `start = edge`): the edges still free while the seat has
    /// its edge to choose; then each waiting unit at spots along its edge (bases touching
    /// it, half a stick apart from its post) and, in RING BATTLE, in front of the player
    /// just inside the ring.
    fn deploy_candidates(&self, seat: battlemat_core::Seat, out: &mut Vec<Action>) {
        if self.edge_to_choose(seat) {
            out.extend((0..crate::setup::EDGE_NAMES.len() as u8).map(|edge| Action::Edge { edge }));
            return;
        }
        let ring = self.fixed.kind == MissionKind::RingBattle;
        let spots: Vec<Point> = if ring {
            self.start_spots(seat)
        } else {
            Vec::new()
        }
        .into_iter()
        .chain(self.edge_spots(seat))
        .collect();
        for u in self.ids() {
            if self.unit(u).owner == Some(seat) && self.unit(u).waiting {
                for &at in &spots {
                    out.push(Action::Deploy { unit: u, at });
                }
            }
        }
    }

    /// A playout's action in a turn (`Game::playout_action`): one of the active player's
    /// units that can act drawn first, then one of that unit's listed actions or the end of
    /// the turn — the listing of one unit, not of the whole army, which is most of what a
    /// random playout costs. Every action of a turn's listing can be drawn: each unit's come
    /// from the same listing code, restricted to it. Outside a turn's plain choices (a
    /// charge's melee pending, a fight's question, deployment) the whole list is drawn from.
    pub fn playout_action(
        &self,
        roller: &mut battlemat_core::Roller,
        out: &mut Vec<Action>,
    ) -> Option<Action> {
        let in_turn = matches!(self.now.phase, Phase::Turn | Phase::FastMoves);
        if in_turn && self.now.charge.is_none() {
            let seat = self.now.active;
            let fast = self.now.phase == Phase::FastMoves;
            let mut acting = [UnitId::default(); 16];
            let mut n = 0;
            for u in self.ids() {
                let x = self.unit(u);
                let can = x.owner == Some(seat)
                    && x.on_table()
                    && (x.stunned || if fast { x.fast_move } else { x.actions > 0 });
                if can {
                    if n == acting.len() {
                        n = 0; // more units than a draw keeps: list them all (below)
                        break;
                    }
                    acting[n] = u;
                    n += 1;
                }
            }
            if n > 0 {
                let u = acting[roller.roll(n as u32) as usize - 1];
                out.clear();
                self.turn_candidates(Some(u), out);
                let i = roller.roll(out.len() as u32) as usize - 1;
                return Some(out[i].clone());
            }
        }
        self.legal_into(out);
        if out.is_empty() {
            return None;
        }
        let i = roller.roll(out.len() as u32) as usize - 1;
        Some(out[i].clone())
    }

    /// The turn's candidates (of every unit, or of `only`'s alone, and the end of the turn).
    fn turn_candidates(&self, only: Option<UnitId>, out: &mut Vec<Action>) {
        let seat = self.now.active;
        let mut scratch = crate::movement::Scratch::of(self);
        // SAFARI: pick-ups are looked for only while some animal lies stunned.
        let pickups = self.fixed.kind == MissionKind::Safari
            && self
                .now
                .units
                .iter()
                .any(|a| a.is_animal() && a.stunned && a.on_table());
        let push = |a: Action, out: &mut Vec<Action>| {
            if self.plan(&a).is_ok() {
                out.push(a);
            }
        };
        // What the active player's units may attack is the same for each of them (a friend
        // is never a target), outside a ring battle (where it depends on the side of the
        // ring): judged once per listing.
        // Only bodies on the table can act or be attacked: the listing looks through them,
        // not every id.
        // (The lists are the scratch's, reused from listing to listing.)
        let [mut on_table, mut shared, mut credits] = scratch.lend();
        on_table.extend(scratch.on_table());
        let shooter = on_table
            .iter()
            .copied()
            .find(|&u| self.unit(u).owner == Some(seat));
        let targets: Option<&[UnitId]> = match shooter {
            Some(s) if self.fixed.kind != MissionKind::RingBattle => {
                shared.extend(
                    on_table
                        .iter()
                        .copied()
                        .filter(|&t| t != s && self.target_ok(s, t).is_ok()),
                );
                Some(&shared)
            }
            _ => None,
        };
        let hill = self.hill().is_some();
        // EGG HUNT: the credits lying on the table, found once per listing.
        if self.fixed.kind == MissionKind::EggHunt {
            credits.extend(
                on_table
                    .iter()
                    .copied()
                    .filter(|&c| self.unit(c).is_marker()),
            );
        }
        if let Some(u) = self.now.charge {
            for t in self.ids() {
                if t != u && self.unit(t).on_table() && self.next_to(u, t) {
                    push(Action::Melee { unit: u, target: t }, out);
                }
            }
        }
        for &u in &on_table {
            let x = self.unit(u);
            if x.owner != Some(seat) || only.is_some_and(|o| o != u) {
                continue;
            }
            if x.stunned {
                push(Action::Recover { unit: u }, out);
                continue;
            }
            if self.now.phase == Phase::FastMoves {
                if x.fast_move {
                    self.move_candidates_with(u, out, &mut scratch);
                }
                continue;
            }
            if x.actions == 0 {
                continue;
            }
            self.move_candidates_with(u, out, &mut scratch);
            self.shot_candidates(u, targets, out);
            if self.now.charge != Some(u) && !self.has(u, Special::T) {
                // Melee: the targets (judged once, when shared) next to it.
                let next_to_it = |t: UnitId| {
                    let y = self.unit(t);
                    t != u && y.owner != x.owner && y.on_table() && !y.stunned && self.next_to(u, t)
                };
                match targets {
                    Some(ts) => {
                        for &t in ts {
                            if next_to_it(t) {
                                push(Action::Melee { unit: u, target: t }, out);
                            }
                        }
                    }
                    None => {
                        for t in self.ids() {
                            if next_to_it(t) {
                                push(Action::Melee { unit: u, target: t }, out);
                            }
                        }
                    }
                }
            }
            if self.unit_type(u).is_some_and(|t| t.is(Special::H)) {
                push(Action::Hide { unit: u }, out);
            }
            if hill || credits.iter().any(|&c| self.next_to(u, c)) {
                push(Action::Collect { unit: u }, out);
            }
            if pickups {
                for a in self.ids() {
                    let y = self.unit(a);
                    if y.is_animal() && y.stunned && y.on_table() && self.next_to(u, a) {
                        push(Action::PickUp { unit: u, animal: a }, out);
                    }
                }
            }
            if x.outside {
                push(Action::BreakIn { unit: u }, out);
                for t in self.ids() {
                    if self.cheer_target(t) {
                        push(Action::Cheer { unit: u, target: t }, out);
                    }
                }
            }
        }
        scratch.give_back([on_table, shared, credits]);
        scratch.recycle();
        out.push(Action::End);
    }

    /// Shots: each target with all the dice; SPRAY also halves its dice over the two
    /// nearest; BITS also fires from 1 stick toward a target it cannot reach or see.
    fn shot_candidates(&self, u: UnitId, shared: Option<&[UnitId]>, out: &mut Vec<Action>) {
        // The shared list holds no friend of `u` (nor `u`): borrowed as it is.
        let targets: std::borrow::Cow<[UnitId]> = match shared {
            Some(t) => std::borrow::Cow::Borrowed(t),
            None => self
                .ids()
                .filter(|&t| t != u && self.target_ok(u, t).is_ok())
                .collect(),
        };
        let x = *self.unit(u);
        // The judge's checks of the unit (`spend`) were made by the caller's loop; each
        // target is judged by the same per-target rules as `judge_shot`.
        let total = self.attack_dice(u, false);
        let bits = self.has(u, Special::B);
        if !bits {
            // Beyond the sticks its dice reach, a shot has no dice left (SDE-RANGE: a die a
            // stick, the first stick free; an A unit is not limited): such a target is passed
            // over with one comparison, as the judge's `aim_dice` would refuse it.
            let limited = !self.has(u, Special::A);
            let in_reach = |t: UnitId| {
                let y = self.unit(t);
                let r = i128::from(total.max(1)) * i128::from(STICK)
                    + i128::from(BASE_RADIUS + y.radius());
                !limited || crate::combat::len2(y.at.x - x.at.x, y.at.y - x.at.y) <= r * r
            };
            // Each target in reach and sight, in one pass.
            out.extend(
                targets
                    .iter()
                    .filter(|&&t| {
                        in_reach(t) && self.aim_dice(u, x.at, BASE_RADIUS, t, total).is_ok()
                    })
                    .map(|&t| Action::Shoot {
                        unit: u,
                        aims: Aims::One(Aim { target: t, dice: 0 }),
                        from: None,
                    }),
            );
        }
        for &t in targets.iter().filter(|_| bits) {
            if self.aim_dice(u, x.at, BASE_RADIUS, t, total).is_ok() {
                out.push(Action::Shoot {
                    unit: u,
                    aims: Aims::One(Aim { target: t, dice: 0 }),
                    from: None,
                });
            }
            if bits {
                let p = toward(x.at, self.unit(t).at, STICK);
                let p = clamp_to(&self.fixed.table, p);
                let bits = Action::Shoot {
                    unit: u,
                    aims: Aims::One(Aim { target: t, dice: 0 }),
                    from: Some(p),
                };
                if p != x.at && self.plan(&bits).is_ok() {
                    out.push(bits);
                }
            }
        }
        if self.has(u, Special::S) && targets.len() >= 2 {
            let mut total = self.attack_dice(u, false);
            let mut near = targets.to_vec();
            near.sort_by_key(|&t| {
                let y = self.unit(t);
                crate::combat::len2(y.at.x - x.at.x, y.at.y - x.at.y)
            });
            // `spray_range = once`: what is left after the farthest share's penalty is split.
            if self.fixed.options.spray_range == crate::options::SprayRange::Once
                && !self.has(u, Special::A)
            {
                let penalty = self
                    .extra_range(x.at, BASE_RADIUS, near[0])
                    .max(self.extra_range(x.at, BASE_RADIUS, near[1]));
                total = total.saturating_sub(penalty);
            }
            let a = total.div_ceil(2);
            let spray = Action::Shoot {
                unit: u,
                aims: Aims::from_vec(vec![
                    Aim {
                        target: near[0],
                        dice: a,
                    },
                    Aim {
                        target: near[1],
                        dice: total - a,
                    },
                ]),
                from: None,
            };
            if self.plan(&spray).is_ok() {
                out.push(spray);
            }
        }
    }
}

fn clamp_to(t: &battlemat_geom::table::Table, p: Point) -> Point {
    let c = |v: Ticks, hi: Ticks| v.clamp(0, hi);
    Point::new(c(p.x, t.width), c(p.y, t.depth))
}
