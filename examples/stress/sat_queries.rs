//! `--queries` with bevy_sat: the query list of `queries.rs` answered by `SpatialQuery`.

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_sat::prelude::*;

use crate::queries::{self, Answer, PointFinds, QuerySet, Timed};
use crate::scene::{Options, Scene};

/// The scene index of every body's entity.
#[derive(Resource, Default)]
pub struct SceneIds(pub EntityHashMap<usize>);

/// Steps over which the index's upkeep is measured.
const UPKEEP_STEPS: usize = 30;

/// Times and answers every query, then measures the index's upkeep (the first query after a
/// step builds it); prints the JSON lines and writes the answers to `answers` if given.
pub fn run(app: &mut App, options: &Options, scene: &Scene, answers: Option<&str>) {
    let set = queries::query_set(scene, options.seed);
    let colliders: Vec<ConvexCollider> = set
        .shapes
        .iter()
        .map(|q| crate::collider_of(queries::shape_of(scene, q)).unwrap_or_default())
        .collect();
    let ids = std::mem::take(&mut app.world_mut().resource_mut::<SceneIds>().0);
    let QuerySet {
        rays,
        shapes,
        points,
    } = set;
    let result = app.world_mut().run_system_once(move |query: SpatialQuery| {
        let filter = SpatialQueryFilter::default();
        let index = |e: Entity| ids.get(&e).copied().unwrap_or(usize::MAX);
        let mut ray_answers: Vec<Timed<Entity>> = vec![None; rays.len()];
        let ray_us = queries::time_per_query(rays.len(), |i| {
            let r = &rays[i];
            let direction = Dir2::new(Vec2::from(r.direction)).unwrap_or(Dir2::X);
            ray_answers[i] = query
                .cast_ray(
                    Vec2::from(r.origin),
                    direction,
                    r.max_distance,
                    true,
                    &filter,
                )
                .map(|hit| (hit.entity, hit.distance));
        });
        let mut shape_answers: Vec<Timed<Entity>> = vec![None; shapes.len()];
        let shape_us = queries::time_per_query(shapes.len(), |i| {
            let s = &shapes[i];
            let direction = Dir2::new(Vec2::from(s.direction)).unwrap_or(Dir2::X);
            shape_answers[i] = query
                .cast_shape(
                    &colliders[i],
                    Vec2::from(s.origin),
                    0.0,
                    direction,
                    s.max_distance,
                    &filter,
                )
                .map(|hit| (hit.entity, hit.distance));
        });
        let mut point_answers = PointFinds::<Entity>::new(points.len());
        let point_us = queries::time_per_query(points.len(), |i| {
            query.point_intersections_callback(Vec2::from(points[i]), &filter, |e| {
                point_answers.push(e);
                true
            });
            point_answers.end_query();
        });
        (
            queries::answers(&ray_answers, index),
            ray_us,
            queries::answers(&shape_answers, index),
            shape_us,
            point_answers.indices(index),
            point_us,
        )
    });
    let Ok((ray_answers, ray_us, shape_answers, shape_us, point_answers, point_us)) = result else {
        eprintln!("stress --queries: the query system could not run");
        return;
    };
    let hits = |a: &[Answer]| a.iter().filter(|a| a.is_some()).count();
    let found = point_answers.iter().filter(|p| !p.is_empty()).count();
    println!(
        "{}",
        queries::json_line("bevy_sat", options, "rays", ray_us, hits(&ray_answers))
    );
    println!(
        "{}",
        queries::json_line(
            "bevy_sat",
            options,
            "shapes",
            shape_us,
            hits(&shape_answers)
        )
    );
    println!(
        "{}",
        queries::json_line("bevy_sat", options, "points", point_us, found)
    );
    if let Some(dir) = answers {
        queries::write_casts(dir, "bevy_sat", "rays", options.bodies, &ray_answers);
        queries::write_casts(dir, "bevy_sat", "shapes", options.bodies, &shape_answers);
        queries::write_points(dir, "bevy_sat", options.bodies, &point_answers);
    }
    // After the answers, so that every engine answers on the scene after the same steps.
    // The upkeep: a step, then a query that finds nothing (a zero-length ray far outside the
    // world), whose time is the grid's build; the median over several steps.
    let far = Vec2::splat(scene.half_extent * 4.0);
    let mut builds = Vec::new();
    let mut steps = Vec::new();
    for _ in 0..UPKEEP_STEPS {
        let clock = std::time::Instant::now();
        app.update();
        steps.push(clock.elapsed().as_secs_f64() * 1e3);
        let ms = app
            .world_mut()
            .run_system_once(move |query: SpatialQuery| {
                let clock = std::time::Instant::now();
                let hit = query.cast_ray(far, Dir2::X, 0.0, true, &SpatialQueryFilter::default());
                std::hint::black_box(hit);
                clock.elapsed().as_secs_f64() * 1e3
            })
            .unwrap_or(f64::NAN);
        builds.push(ms);
    }
    builds.sort_by(f64::total_cmp);
    steps.sort_by(f64::total_cmp);
    let (build, step) = (builds[builds.len() / 2], steps[steps.len() / 2]);
    eprintln!(
        "stress --queries: the query index's build after a step, median of {UPKEEP_STEPS}: \
         {build:.3} ms, {:.1}% of the step's median ({step:.3} ms, {} mode)",
        100.0 * build / step,
        options.mode
    );
    // How much of the process's memory the kernel backs with huge pages (Linux; the body
    // records ask for them): a run where it found none is not like the others.
    let huge_mib = huge_pages_mib().map_or("null".to_string(), |mib| format!("{mib:.1}"));
    println!(
        "{{\"engine\":\"bevy_sat\",\"queries\":\"index_build\",\"bodies\":{},\"mode\":\"{}\",\"build_ms_median\":{build:.4},\"step_ms_median\":{step:.4},\"huge_pages_mib\":{huge_mib}}}",
        options.bodies, options.mode
    );
}

/// The process's anonymous memory on transparent huge pages, in MiB (`AnonHugePages` in
/// `/proc/self/smaps_rollup`, which counts KiB); `None` where the system does not say.
fn huge_pages_mib() -> Option<f64> {
    let rollup = std::fs::read_to_string("/proc/self/smaps_rollup").ok()?;
    let line = rollup.lines().find(|l| l.starts_with("AnonHugePages:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}
