//! `--queries` with avian2d: the query list of bevy_sat's `examples/stress/queries.rs`
//! answered by avian's `SpatialQuery` (its collider trees, kept by its broad phase).

use avian2d::prelude::*;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;

use crate::queries::{self, Answer, PointFinds, QuerySet, Timed};
use crate::scene::{Options, Scene};

/// The scene index of every body's entity.
#[derive(Resource, Default)]
pub struct SceneIds(pub EntityHashMap<usize>);

/// Times and answers every query; prints the JSON lines and writes the answers to `answers`
/// if given.
pub fn run(app: &mut App, options: &Options, scene: &Scene, answers: Option<&str>) {
    let set = queries::query_set(scene, options.seed);
    let colliders: Vec<Collider> = set
        .shapes
        .iter()
        .map(|q| {
            crate::collider_of(queries::shape_of(scene, q)).unwrap_or(Collider::rectangle(1.0, 1.0))
        })
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
            let config = ShapeCastConfig::from_max_distance(s.max_distance);
            shape_answers[i] = query
                .cast_shape(
                    &colliders[i],
                    Vec2::from(s.origin),
                    0.0,
                    direction,
                    &config,
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
        eprintln!("stress_avian --queries: the query system could not run");
        return;
    };
    let hits = |a: &[Answer]| a.iter().filter(|a| a.is_some()).count();
    let found = point_answers.iter().filter(|p| !p.is_empty()).count();
    println!(
        "{}",
        queries::json_line("avian2d", options, "rays", ray_us, hits(&ray_answers))
    );
    println!(
        "{}",
        queries::json_line("avian2d", options, "shapes", shape_us, hits(&shape_answers))
    );
    println!(
        "{}",
        queries::json_line("avian2d", options, "points", point_us, found)
    );
    if let Some(dir) = answers {
        queries::write_casts(dir, "avian2d", "rays", options.bodies, &ray_answers);
        queries::write_casts(dir, "avian2d", "shapes", options.bodies, &shape_answers);
        queries::write_points(dir, "avian2d", options.bodies, &point_answers);
    }
}
