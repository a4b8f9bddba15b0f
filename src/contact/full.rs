//! The "full" resolution mode of ball-wall contacts (seed 001, from "Two circumstances where
//! the associative logic will not produce the desired behavior" to the end): after the
//! associative logic ([`super::associative`]), per ball-wall interaction,
//!
//! 1. **line of sight**: where the segment from the ball centre to the wall contact point of an
//!    active contact crosses the facet of another active contact, the one with the smaller
//!    overlap becomes inactive (a ball over a sliver or a small fold reaches facets that lie
//!    behind other facets; only the nearest surface is physical). Pairs are judged against
//!    the set the associative logic left active, so the result does not depend on order;
//! 2. **proximity contacts** (`Theta > 0`): active contacts whose facet normals differ by less
//!    than `Theta` combine into one proximity contact (PC); touching contacts of facets that
//!    share an edge or a vertex with a member, whose facet normal is within `Theta` of a
//!    member's, join it; a member leaves once it no longer touches (overlap <= 0). The PC
//!    acts as one contact: normal `n = sum(U_i n_i) / |sum(U_i n_i)|` (overlap-weighted),
//!    overlap `U = mean(U_i)`, both over its *active* members (see below); its contact point
//!    `x + (R - U/2) n` as for any contact. Its frame and model state live in one member, the
//!    *carrier* (the highest-ranked active member); the state lives while any member touches;
//! 3. **continuity of contact state**: when an interaction's active contact moves from facet
//!    `b` (active last cycle, inactive now, still touching) to facet `d` (inactive last cycle,
//!    active now), the model's non-geometric state goes from `b` to `d` ([`ContactModel::hand_over`])
//!    when both use the same contact model and a path of linked touching contacts joins them
//!    whose facet normals are all within `Theta` of `n_b` (the associative links are the path,
//!    as the seed proposes: a hole in the mesh, or a facet tilted beyond `Theta`, breaks it).
//!    The frame goes with the state, turned by the smallest rotation onto `d`'s normal
//!    ([`super::Frame::reaim`]), so the shear force keeps its local components.
//!
//! Our readings where the seed is silent or ambiguous (the figures and one formula are missing):
//! - the PC's normal and overlap average its *active* members only: members that the
//!   associative logic shadows (a neighbour facet touched at its edge while the ball is over
//!   the face next to it) keep the PC alive but do not dilute its overlap. Averaging every
//!   touching member would make a PC on a flat multi-facet wall softer than the same wall made
//!   of one facet, which a smooth surface must not be;
//! - a PC with no active member left ends (its state is dropped), like a contact that becomes
//!   inactive;
//! - a new PC starts from the state of its carrier if that contact was already active (the
//!   other members' states are dropped); PCs that merge keep the state of the one whose carrier
//!   has the lowest facet number;
//! - (cost) the per-interaction work is quadratic in its number of contacts (a handful); it
//!   allocates small buffers only when something happens (two or more active contacts, a
//!   proximity contact, a contact that just became active), never in the common case;
//! - `Theta = 0` forms no PC ("less than") but propagates state between coplanar facets ("<=");
//!   normals within [`PARALLEL`] rad count as parallel (coplanar facets of one mesh have
//!   normals equal only to round-off).

use super::{FacetContact, Frame, FullStats};
use crate::geom::{segment_crosses, Mesh, Region, NONE};
use crate::law::ContactModel;
use crate::math::{Real, Vec3};

/// Angle below which two facet normals count as parallel, rad (round-off of normals computed
/// from vertex cross products is ~1e-16; a real tilt of 1e-9 rad is far below any `Theta`).
pub const PARALLEL: Real = 1e-9;

/// What the full mode needs to know about one ball-wall interaction.
pub struct FullInput<'a> {
    /// The wall's mesh.
    pub mesh: &'a Mesh,
    /// The wall's facet normals.
    pub normals: &'a [Vec3],
    /// `Theta`, rad.
    pub cutoff: Real,
    /// The contact models (indexed by `FacetContact::law`).
    pub laws: &'a [ContactModel],
    /// Ball centre, m.
    pub centre: Vec3,
    /// Ball radius, m.
    pub radius: Real,
}

/// Angle between two unit vectors, rad (accurate near 0 and near pi).
#[inline]
pub fn angle(a: &Vec3, b: &Vec3) -> Real {
    a.cross(b).norm().atan2(a.dot(b))
}

/// True when contact `a` ranks above `b` (larger overlap; ties: lower facet number), as in
/// the associative logic.
#[inline]
fn ranks_above(a: &FacetContact, b: &FacetContact) -> bool {
    a.overlap > b.overlap || (a.overlap == b.overlap && a.facet < b.facet)
}

/// Runs items 1-3 of the module documentation on one interaction whose contacts (sorted by
/// facet) have their geometry up to date and their activity resolved by the associative
/// logic. On return `active` marks the contacts that carry force; a PC's carrier holds the
/// PC's geometry in its `normal`, `overlap`, `wall_point` and `point`. `frames`: the
/// contacts' local frames, aligned with `contacts`, or empty when no model uses one (the
/// hand-overs then move the model states only), with their rolling springs (aligned too, or
/// empty when no model has a rolling resistance), which move with the frames.
pub fn resolve(
    contacts: &mut [FacetContact],
    frames: (&mut [Frame], &mut [Vec3]),
    input: &FullInput,
) -> FullStats {
    let mut stats = FullStats {
        hidden: line_of_sight(contacts, input),
        ..FullStats::default()
    };
    if input.cutoff > 0.0 {
        stats.proximity = proximity(contacts, (&mut *frames.0, &mut *frames.1), input);
    } else {
        for c in contacts.iter_mut() {
            c.pc = NONE;
        }
    }
    stats.handovers = propagate(contacts, frames, input);
    stats
}

/// Item 1: the line-of-sight check. Returns how many contacts it made inactive.
fn line_of_sight(contacts: &mut [FacetContact], input: &FullInput) -> u32 {
    // NOTE: the common case (at most one active contact) returns before allocating anything.
    if contacts.iter().filter(|c| c.active).nth(1).is_none() {
        return 0;
    }
    let active: Vec<usize> = (0..contacts.len())
        .filter(|&i| contacts[i].active)
        .collect();
    if active.len() < 2 {
        return 0;
    }
    let mut hidden = Vec::new();
    for &i in &active {
        for &j in &active {
            if i == j {
                continue;
            }
            let tri = input.mesh.corners(contacts[j].facet as usize);
            if segment_crosses(&input.centre, &contacts[i].wall_point, &tri) {
                hidden.push(if ranks_above(&contacts[i], &contacts[j]) {
                    j
                } else {
                    i
                });
            }
        }
    }
    hidden.sort_unstable();
    hidden.dedup();
    for &k in &hidden {
        contacts[k].active = false;
    }
    hidden.len() as u32
}

/// The facets linked to contact `c` by its wall contact point (an edge: the neighbour across
/// it; a vertex: every facet around it), calling `f` for each (its own facet excluded).
fn for_each_link(c: &FacetContact, mesh: &Mesh, mut f: impl FnMut(u32)) {
    let facet = c.facet as usize;
    match c.region {
        Region::Face => {}
        Region::Edge(k) => {
            let g = mesh.edge_neighbour[facet][k as usize];
            if g != NONE {
                f(g)
            }
        }
        Region::Vertex(k) => {
            for &g in mesh.facets_of_vertex(mesh.facets[facet][k as usize]) {
                if g as usize != facet {
                    f(g)
                }
            }
        }
    }
}

/// True when facets `f` and `g` share a vertex (an edge shares two).
fn adjacent(mesh: &Mesh, f: u32, g: u32) -> bool {
    let (a, b) = (mesh.facets[f as usize], mesh.facets[g as usize]);
    a.iter().any(|v| b.contains(v))
}

/// Index of the contact with facet `g` in the run, if any.
#[inline]
fn find(contacts: &[FacetContact], g: u32) -> Option<usize> {
    contacts.binary_search_by_key(&g, |c| c.facet).ok()
}

/// Item 2: proximity contacts. Returns the number of PCs acting.
fn proximity(
    contacts: &mut [FacetContact],
    (frames, rolls): (&mut [Frame], &mut [Vec3]),
    input: &FullInput,
) -> u32 {
    // No proximity contact so far and fewer than two active contacts: none can form, and
    // nothing is allocated.
    if contacts.iter().all(|c| c.pc == NONE)
        && contacts.iter().filter(|c| c.active).nth(1).is_none()
    {
        return 0;
    }
    let n = contacts.len();
    let theta = input.cutoff;
    let normal = |c: &FacetContact| input.normals[c.facet as usize];
    // Union-find over the run.
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    fn join(parent: &mut [usize], a: usize, b: usize) {
        let (ra, rb) = (root(parent, a), root(parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    // Members of last cycle's PCs that still touch stay together; `old[i]` is the index of
    // the carrier (state holder) of contact i's old PC.
    let mut old = vec![None; n];
    let mut member = vec![false; n];
    for i in 0..n {
        let pc = contacts[i].pc;
        if pc == NONE {
            continue;
        }
        let holder = find(contacts, pc).filter(|&h| contacts[h].pc == pc && !contacts[h].fresh);
        old[i] = holder;
        if contacts[i].touching {
            member[i] = true;
            if let Some(first) = (0..i).find(|&k| member[k] && contacts[k].pc == pc) {
                join(&mut parent, first, i);
            }
        }
    }
    // Any two active contacts with facet normals less than Theta apart combine.
    for i in 0..n {
        for j in i + 1..n {
            if contacts[i].active
                && contacts[j].active
                && angle(&normal(&contacts[i]), &normal(&contacts[j])) < theta
            {
                join(&mut parent, i, j);
                member[i] = true;
                member[j] = true;
            }
        }
    }
    // Touching contacts of facets adjacent to a member, within Theta of one, join it.
    loop {
        let mut grew = false;
        for k in 0..n {
            if member[k] || !contacts[k].touching {
                continue;
            }
            let into = (0..n).find(|&m| {
                member[m]
                    && adjacent(input.mesh, contacts[m].facet, contacts[k].facet)
                    && angle(&normal(&contacts[m]), &normal(&contacts[k])) < theta
            });
            if let Some(m) = into {
                join(&mut parent, m, k);
                member[k] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    // Each group: carrier = highest-ranked active member; no active member: the PC ends.
    let mut count = 0;
    let mut updates: Vec<(usize, Option<usize>, Vec<usize>)> = Vec::new();
    for r in 0..n {
        if !member[r] || root(&mut parent, r) != r {
            continue;
        }
        let group: Vec<usize> = (0..n)
            .filter(|&i| member[i] && root(&mut parent, i) == r)
            .collect();
        let carrier = group
            .iter()
            .copied()
            .filter(|&i| contacts[i].active)
            .reduce(|a, b| {
                if ranks_above(&contacts[b], &contacts[a]) {
                    b
                } else {
                    a
                }
            });
        let Some(carrier) = carrier else {
            for &i in &group {
                contacts[i].pc = NONE;
            }
            continue;
        };
        // The state: the old PC's holder with the lowest facet number, else the carrier's own.
        let source = group.iter().filter_map(|&i| old[i]).min();
        updates.push((carrier, source, group));
        count += 1;
    }
    // Contacts in no group leave any PC.
    for i in 0..n {
        if !member[i] {
            contacts[i].pc = NONE;
        }
    }
    for (carrier, source, group) in updates {
        let (mut sum_n, mut sum_u, mut k) = (Vec3::zeros(), 0.0, 0.0);
        for &i in &group {
            let c = &contacts[i];
            if c.active {
                sum_n += c.normal * c.overlap;
                sum_u += c.overlap;
                k += 1.0;
            }
        }
        // NOTE: normals that cancel (three sides 120 degrees apart with equal overlaps and
        // Theta above 120 degrees) leave no direction: the contacts then act separately.
        if sum_n.norm() <= 1e-9 * sum_u {
            for &i in &group {
                contacts[i].pc = NONE;
            }
            count -= 1;
            continue;
        }
        if let Some(s) = source {
            if s != carrier {
                if !frames.is_empty() {
                    frames[carrier] = frames[s];
                }
                if !rolls.is_empty() {
                    rolls[carrier] = rolls[s];
                }
                contacts[carrier].state = contacts[s].state;
                contacts[carrier].fresh = false;
            }
        }
        let facet = contacts[carrier].facet;
        for &i in &group {
            contacts[i].pc = facet;
            contacts[i].active = false;
        }
        let c = &mut contacts[carrier];
        c.active = true;
        c.normal = sum_n.normalize();
        c.overlap = sum_u / k;
        c.wall_point = input.centre + c.normal * (input.radius - c.overlap);
        c.point = input.centre + c.normal * (input.radius - 0.5 * c.overlap);
    }
    count
}

/// Item 3: hands the state of contacts that lost their activity to a linked facet over to the
/// contact that gained it. Returns the number of hand-overs.
fn propagate(
    contacts: &mut [FacetContact],
    (frames, rolls): (&mut [Frame], &mut [Vec3]),
    input: &FullInput,
) -> u32 {
    // Nothing to hand over unless a contact just became active (checked before allocating).
    if !contacts.iter().any(|c| c.active && c.fresh && c.pc == NONE) {
        return 0;
    }
    let n = contacts.len();
    // New: active now, not last cycle, not in a PC. Ended: active last cycle (state kept),
    // inactive now, still touching, not in a PC.
    let mut new: Vec<usize> = (0..n)
        .filter(|&i| contacts[i].active && contacts[i].fresh && contacts[i].pc == NONE)
        .collect();
    if new.is_empty() {
        return 0;
    }
    let mut ended: Vec<usize> = (0..n)
        .filter(|&i| {
            let c = &contacts[i];
            !c.active && !c.fresh && c.touching && c.pc == NONE
        })
        .collect();
    if ended.is_empty() {
        return 0;
    }
    new.sort_by(|&a, &b| rank_order(&contacts[a], &contacts[b]));
    ended.sort_by(|&a, &b| rank_order(&contacts[a], &contacts[b]));
    let mut used = vec![false; ended.len()];
    let mut count = 0;
    for &d in &new {
        let from = ended
            .iter()
            .enumerate()
            .find(|&(k, &b)| !used[k] && path(contacts, input, b, d))
            .map(|(k, &b)| (k, b));
        let Some((k, b)) = from else { continue };
        used[k] = true;
        if !frames.is_empty() {
            let mut frame: Frame = frames[b];
            frame.reaim(&-contacts[d].normal);
            frame.u_normal = -contacts[d].overlap;
            frames[d] = frame;
        }
        if !rolls.is_empty() {
            // (its local components: the frame turned with them)
            rolls[d] = rolls[b];
        }
        let state = input.laws[contacts[b].law as usize].hand_over(&contacts[b].state);
        let c = &mut contacts[d];
        c.state = state;
        c.fresh = false;
        count += 1;
    }
    count
}

/// Highest rank first.
fn rank_order(a: &FacetContact, b: &FacetContact) -> std::cmp::Ordering {
    if ranks_above(a, b) {
        std::cmp::Ordering::Less
    } else if ranks_above(b, a) {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// True when contacts `b` and `d` use the same model and a path of links between touching
/// contacts joins them, every facet on it (both ends included) within `Theta` of `b`'s facet
/// normal. Links are taken in both directions (a contact on an edge or vertex links to the
/// facets sharing it), as in the associative logic.
fn path(contacts: &[FacetContact], input: &FullInput, b: usize, d: usize) -> bool {
    if contacts[b].law != contacts[d].law {
        return false;
    }
    let nb = input.normals[contacts[b].facet as usize];
    let within = |i: usize| {
        contacts[i].touching
            && angle(&nb, &input.normals[contacts[i].facet as usize]) <= input.cutoff + PARALLEL
    };
    if !within(d) {
        return false;
    }
    let n = contacts.len();
    let mut seen = vec![false; n];
    let mut queue = vec![b];
    seen[b] = true;
    while let Some(i) = queue.pop() {
        if i == d {
            return true;
        }
        let mut next = Vec::new();
        for_each_link(&contacts[i], input.mesh, |g| {
            if let Some(j) = find(contacts, g) {
                next.push(j);
            }
        });
        for (j, c) in contacts.iter().enumerate() {
            let mut back = false;
            for_each_link(c, input.mesh, |g| back |= g == contacts[i].facet);
            if back {
                next.push(j);
            }
        }
        for j in next {
            if !seen[j] && within(j) {
                seen[j] = true;
                queue.push(j);
            }
        }
    }
    false
}
