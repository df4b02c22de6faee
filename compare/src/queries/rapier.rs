//! `--queries` with bevy_rapier2d: the query list of bevy_sat's `examples/stress/queries.rs`
//! answered by rapier's query pipeline (over its broad phase's tree) through
//! `ReadRapierContext`.

use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy_rapier2d::parry::query::ShapeCastOptions;
use bevy_rapier2d::prelude::*;

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
            crate::collider_of(queries::shape_of(scene, q)).unwrap_or(Collider::cuboid(0.5, 0.5))
        })
        .collect();
    let ids = std::mem::take(&mut app.world_mut().resource_mut::<SceneIds>().0);
    let QuerySet {
        rays,
        shapes,
        points,
    } = set;
    let result = app
        .world_mut()
        .run_system_once(move |context: ReadRapierContext| {
            let Ok(context) = context.single() else {
                return None;
            };
            let filter = QueryFilter::default;
            let index = |e: Entity| ids.get(&e).copied().unwrap_or(usize::MAX);
            let mut ray_answers: Vec<Timed<Entity>> = vec![None; rays.len()];
            let ray_us = queries::time_per_query(rays.len(), |i| {
                let r = &rays[i];
                ray_answers[i] = context.cast_ray(
                    Vec2::from(r.origin),
                    Vec2::from(r.direction),
                    r.max_distance,
                    true,
                    filter(),
                );
            });
            let mut shape_answers: Vec<Timed<Entity>> = vec![None; shapes.len()];
            let shape_us = queries::time_per_query(shapes.len(), |i| {
                let s = &shapes[i];
                let options = ShapeCastOptions::with_max_time_of_impact(s.max_distance);
                shape_answers[i] = context
                    .cast_shape(
                        Vec2::from(s.origin),
                        0.0,
                        Vec2::from(s.direction),
                        &*colliders[i].raw,
                        options,
                        filter(),
                    )
                    .map(|(e, hit)| (e, hit.time_of_impact));
            });
            let mut point_answers = PointFinds::<Entity>::new(points.len());
            let point_us = queries::time_per_query(points.len(), |i| {
                context.with_query_pipeline(filter(), |pipeline| {
                    for e in pipeline.intersect_point(Vec2::from(points[i])) {
                        point_answers.push(e);
                    }
                });
                point_answers.end_query();
            });
            Some((
                queries::answers(&ray_answers, index),
                ray_us,
                queries::answers(&shape_answers, index),
                shape_us,
                point_answers.indices(index),
                point_us,
            ))
        });
    let Ok(Some((ray_answers, ray_us, shape_answers, shape_us, point_answers, point_us))) = result
    else {
        eprintln!("stress_rapier --queries: the query system could not run");
        return;
    };
    let hits = |a: &[Answer]| a.iter().filter(|a| a.is_some()).count();
    let found = point_answers.iter().filter(|p| !p.is_empty()).count();
    println!(
        "{}",
        queries::json_line("bevy_rapier2d", options, "rays", ray_us, hits(&ray_answers))
    );
    println!(
        "{}",
        queries::json_line(
            "bevy_rapier2d",
            options,
            "shapes",
            shape_us,
            hits(&shape_answers)
        )
    );
    println!(
        "{}",
        queries::json_line("bevy_rapier2d", options, "points", point_us, found)
    );
    if let Some(dir) = answers {
        queries::write_casts(dir, "bevy_rapier2d", "rays", options.bodies, &ray_answers);
        queries::write_casts(
            dir,
            "bevy_rapier2d",
            "shapes",
            options.bodies,
            &shape_answers,
        );
        queries::write_points(dir, "bevy_rapier2d", options.bodies, &point_answers);
    }
}
