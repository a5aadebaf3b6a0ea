//! Schema migrations, run at start-up on SQLite and PostgreSQL alike.

use sea_orm_migration::prelude::*;

mod m20261122_000001_core;
mod m20261122_000002_points_feedback_tracking;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_core::Migration),
            Box::new(m20261122_000002_points_feedback_tracking::Migration),
        ]
    }
}
