//! `brandops`: the server and its operator commands. Thin on purpose: it
//! parses arguments and calls the library.

use clap::{Parser, Subcommand};

use brandops::accounts::Role;
use brandops::app::Application;
use brandops::app::api;
use brandops::audit::Actor;
use brandops::config::Settings;
use brandops::db::Db;
use brandops::db::migrate::migrate_all;
use brandops::identity::password::Passwords;
use brandops::telemetry;
use brandops::tenants::definition::load_demo;
use brandops::tenants::demo_calls::seed_demo_calls;
use brandops::tenants::demo_stock::seed_demo_stock;
use brandops::tenants::seed::seed_demo_if_empty;
use brandops::tenants::{self, FirstAccount, Onboarding, TenantKind, onboard};

#[derive(Parser)]
#[command(
    name = "brandops",
    version,
    about = "brandops server and operator commands"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the app and API (migrates first).
    Serve,
    /// Apply platform and tenant migrations.
    Migrate,
    /// Migrate, then seed the demo tenants when the database has none.
    Setup,
    /// Print the OpenAPI contract (YAML) to stdout.
    Openapi,
    /// Manage tenants.
    Tenant {
        #[command(subcommand)]
        command: TenantCommand,
    },
}

#[derive(Subcommand)]
enum TenantCommand {
    /// Onboard a tenant with its first admin (password from ADMIN_PASSWORD).
    Create {
        #[arg(long)]
        client_id: String,
        #[arg(long)]
        name: String,
        #[arg(long, value_parser = ["brand", "client"])]
        kind: String,
        #[arg(long)]
        user_limit: i32,
        /// How many products it may have (default 100).
        #[arg(long)]
        product_limit: Option<i32>,
        /// How many codes it may generate in all (default 1000000).
        #[arg(long)]
        code_quota: Option<i64>,
        #[arg(long)]
        admin_email: String,
        #[arg(long)]
        admin_name: String,
        #[arg(long, env = "ADMIN_PASSWORD", hide_env_values = true)]
        admin_password: String,
        /// Comma-separated module keys (default: every brand module, or the
        /// client tools for a client).
        #[arg(long, value_delimiter = ',')]
        modules: Option<Vec<String>>,
    },
    /// List tenants.
    List,
    /// Suspend a tenant: its users cannot sign in; their sessions end.
    Suspend { client_id: String },
    /// Reactivate a suspended tenant.
    Reactivate { client_id: String },
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    if let Err(err) = run(cli).await {
        eprintln!("error: {err:#}");
        std::process::exit(1);
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    if let Command::Openapi = cli.command {
        print!("{}", api::spec_yaml());
        return Ok(());
    }
    let settings = Settings::from_env()?;
    telemetry::init(settings.log_json);
    match cli.command {
        Command::Openapi => unreachable!(),
        Command::Serve => {
            let app = Application::build(settings).await?;
            tracing::info!(port = app.port(), "brandops is serving");
            println!(
                "brandops is running on http://{}:{}",
                app.state().settings.host,
                app.port()
            );
            app.run_until_stopped().await
        }
        Command::Migrate => {
            let (owner, roles) =
                Db::connect_owner(settings.database_url.expose(), &settings.db_role_secret).await?;
            migrate_all(&owner, &roles).await?;
            println!("migrations applied");
            Ok(())
        }
        Command::Setup => {
            let (owner, roles) =
                Db::connect_owner(settings.database_url.expose(), &settings.db_role_secret).await?;
            migrate_all(&owner, &roles).await?;
            let password =
                std::env::var("DEMO_PASSWORD").unwrap_or_else(|_| "brandops-demo".into());
            let seeded = seed_demo_if_empty(
                &owner,
                &roles,
                &settings.tenants_dir.join("demo"),
                &password,
            )
            .await?;
            if seeded == 0 {
                println!("The database already holds tenants: demo data not seeded again.");
            } else {
                println!("Seeded the demo tenants.");
            }
            let (tenants, platform) = load_demo(&settings.tenants_dir.join("demo"))?;
            // Their stock, on the tenants' own connections (once: a tenant with
            // a location is left as it is).
            let db = Db::connect(&settings).await?;
            let stocked = seed_demo_stock(&db, &tenants).await?;
            if stocked > 0 {
                println!("Seeded the demo stock of {stocked} tenant(s).");
            }
            db.close().await;
            // Their supply chain, through the API itself (in process: the
            // port it binds is never served).
            let mut in_process = settings.clone();
            in_process.host = "127.0.0.1".into();
            in_process.port = 0;
            in_process.public_url = None;
            let app = Application::build(in_process).await?;
            let origin = app.state().settings.public_url.clone().unwrap_or_default();
            let called = seed_demo_calls(
                &app.endpoint(),
                &origin,
                &tenants,
                &password,
                chrono::Utc::now().date_naive(),
            )
            .await?;
            if called > 0 {
                println!("Seeded the demo supply chain of {called} tenant(s).");
            }
            println!("Demo sign-ins (password: {password}):");
            for t in &tenants {
                for a in &t.accounts {
                    let role = a.role.as_deref().unwrap_or("?");
                    println!("  {:<26} {:<15} {}", a.email, role, t.client_id);
                }
            }
            for a in &platform.accounts {
                println!("  {:<26} {:<15} (platform)", a.email, "platform_admin");
            }
            Ok(())
        }
        Command::Tenant { command } => tenant_command(settings, command).await,
    }
}

async fn tenant_command(settings: Settings, command: TenantCommand) -> anyhow::Result<()> {
    let (owner, roles) =
        Db::connect_owner(settings.database_url.expose(), &settings.db_role_secret).await?;
    migrate_all(&owner, &roles).await?;
    let fail = |e: brandops::http::error::ApiError| anyhow::anyhow!(e.message);
    match command {
        TenantCommand::Create {
            client_id,
            name,
            kind,
            user_limit,
            product_limit,
            code_quota,
            admin_email,
            admin_name,
            admin_password,
            modules,
        } => {
            let request = Onboarding {
                client_id,
                name,
                kind: TenantKind::parse(&kind).expect("clap checked the kind"),
                schema: None,
                user_limit,
                product_limit,
                code_quota,
                modules,
                accounts: vec![FirstAccount {
                    email: admin_email,
                    name: admin_name,
                    role: Role::Admin,
                    password: admin_password,
                }],
            };
            let prepared = request.prepare(&Passwords::new(1)?).await.map_err(fail)?;
            let mut tx = owner.begin().await?;
            let t = onboard(&mut tx, &roles, &prepared, &Actor::cli())
                .await
                .map_err(fail)?;
            tx.commit().await?;
            println!(
                "created tenant {} (schema {})",
                t.client_id,
                t.schema_name.as_str()
            );
        }
        TenantCommand::List => {
            for t in tenants::store::list_tenants(&owner).await? {
                println!(
                    "{:<16} {:<7} {:<16} {:>3}/{:<5} {}",
                    t.client_id, t.kind, t.schema_name, t.user_count, t.user_limit, t.status
                );
            }
        }
        TenantCommand::Suspend { client_id } => set_status(&owner, &client_id, true).await?,
        TenantCommand::Reactivate { client_id } => set_status(&owner, &client_id, false).await?,
    }
    Ok(())
}

async fn set_status(owner: &sqlx::PgPool, client_id: &str, suspend: bool) -> anyhow::Result<()> {
    let t = tenants::set_suspended(owner, client_id, suspend, &Actor::cli())
        .await
        .map_err(|e| anyhow::anyhow!(e.message))?;
    println!("{} is now {}", t.client_id, t.status);
    Ok(())
}
