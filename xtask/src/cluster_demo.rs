//! `cargo xtask cluster-demo`: a split solve run end to end on a single-node Slurm cluster
//! started here (docs/cluster.md): split, a job array, merge, the root from the merged database.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

/// Arguments of `cargo xtask cluster-demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board (N×N); its empty board is solved.
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// Moves ahead of the split.
    #[arg(long, default_value_t = 2)]
    depth: u8,
    /// Job files, one array task each.
    #[arg(long, default_value_t = 8)]
    jobs: u32,
    /// The `nash` binary; by default `cargo build --release -p nash-cli` builds it.
    #[arg(long)]
    nash: Option<PathBuf>,
    /// The ports of slurmctld and slurmd (the next one).
    #[arg(long, default_value_t = 16817)]
    port: u16,
}

/// The daemons started here, stopped when dropped.
struct Daemons(Vec<Child>);

impl Drop for Daemons {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    for tool in ["slurmctld", "slurmd", "sbatch", "sinfo"] {
        if which(tool).is_none() {
            bail!("{tool} not found: install Slurm (Debian: apt-get install slurm-wlm)");
        }
    }
    let nash = match &args.nash {
        // The array's tasks run in another directory.
        Some(p) => p.canonicalize().with_context(|| format!("cannot find {}", p.display()))?,
        None => crate::htp::build_nash()?,
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/cluster-demo");
    let _ = std::fs::remove_dir_all(&root);
    for d in ["state", "spool", "jobs", "logs"] {
        std::fs::create_dir_all(root.join(d))
            .with_context(|| format!("cannot create {}", root.join(d).display()))?;
    }
    let root = root.canonicalize()?;
    let conf = root.join("slurm.conf");
    std::fs::write(&conf, slurm_conf(&root, args.port)?)?;
    println!("slurm.conf: {}", conf.display());
    let started = Instant::now();
    let _daemons = start(&conf)?;
    println!("slurmctld and slurmd up in {:.1}s", started.elapsed().as_secs_f64());

    let size = args.size.to_string();
    let at = |name: &str| root.join(name).to_string_lossy().into_owned();
    let t = Instant::now();
    let split_db = at("split.db");
    run_nash(
        &nash,
        &[
            "split",
            "--size",
            &size,
            "--depth",
            &args.depth.to_string(),
            "--db",
            &split_db,
            "--out",
            &at("jobs"),
            "--jobs",
            &args.jobs.to_string(),
            "--threads",
            "2",
        ],
    )?;
    println!("split: {:.1}s", t.elapsed().as_secs_f64());
    let jobs = std::fs::read_dir(root.join("jobs"))?.count();
    let worker = root.join("worker.sh");
    std::fs::write(
        &worker,
        format!(
            "#!/bin/sh\n# One array task: its job file, its own database.\nexec {} solve --batch {}/job-$SLURM_ARRAY_TASK_ID.txt --size {size} --db {}/worker-$SLURM_ARRAY_TASK_ID.db --progress\n",
            nash.display(),
            at("jobs"),
            root.display()
        ),
    )?;
    let t = Instant::now();
    println!("$ sbatch --wait --array=1-{jobs} {}", worker.display());
    // `--parsable` makes sbatch print the array's job id alone, read back below.
    let out = Command::new("sbatch")
        .env("SLURM_CONF", &conf)
        .current_dir(&root)
        .args(["--wait", "--parsable", "--cpus-per-task=1"])
        .arg(format!("--array=1-{jobs}"))
        .arg(format!("--output={}/job-%a.out", at("logs")))
        .arg(&worker)
        .stderr(std::process::Stdio::inherit())
        .output()
        .context("cannot run sbatch")?;
    if !out.status.success() {
        bail!("the job array failed: see {}", root.join("logs").display());
    }
    let id = String::from_utf8_lossy(&out.stdout);
    println!("job array {} of {jobs} tasks: {:.1}s", id.trim(), t.elapsed().as_secs_f64());
    let mut merge = vec!["db".to_owned(), "merge".to_owned(), split_db.clone()];
    merge.extend((1..=jobs).map(|i| at(&format!("worker-{i}.db"))));
    merge.extend(["--into".to_owned(), at("merged.db")]);
    let t = Instant::now();
    run_nash(&nash, &merge.iter().map(String::as_str).collect::<Vec<_>>())?;
    println!("merge: {:.1}s", t.elapsed().as_secs_f64());
    run_nash(&nash, &["db", "stats", &at("merged.db")])?;
    let t = Instant::now();
    let out = Command::new(&nash)
        .args(["solve", "--size", &size, "--db", &at("merged.db"), "--json"])
        .output()
        .context("cannot run nash")?;
    let report: serde_json::Value = serde_json::from_slice(&out.stdout)
        .with_context(|| String::from_utf8_lossy(&out.stderr).into_owned())?;
    println!(
        "root: {} wins (from the database: {}, nodes {}), {:.1}s",
        report["winner"],
        report["from_db"],
        report["stats"]["nodes"],
        t.elapsed().as_secs_f64()
    );
    // The first player wins every empty square board (the strategy-stealing argument).
    if report["winner"] != "black" || report["from_db"] != true {
        bail!("the root was not decided as a black win from the merged database: {report}");
    }
    println!(
        "cluster demo: the empty {size}x{size} board is a black win, as known; total {:.1}s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn run_nash(nash: &Path, args: &[&str]) -> anyhow::Result<()> {
    println!("$ nash {}", args.join(" "));
    let status = Command::new(nash).args(args).status().context("cannot run nash")?;
    if !status.success() {
        bail!("nash {} failed", args.join(" "));
    }
    Ok(())
}

fn which(tool: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path).collect();
    dirs.extend(["/usr/sbin", "/sbin"].map(PathBuf::from));
    dirs.into_iter().map(|d| d.join(tool)).find(|p| p.is_file())
}

fn hostname() -> anyhow::Result<String> {
    let out = Command::new("hostname").arg("-s").output().context("cannot run hostname")?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// A single-node configuration: this host is the controller and the one compute node, with
/// every CPU; no authentication daemon (auth/none), state and logs under `root`.
fn slurm_conf(root: &Path, port: u16) -> anyhow::Result<String> {
    let host = hostname()?;
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let r = root.display();
    Ok(format!(
        "ClusterName=nashdemo\nSlurmctldHost={host}\nAuthType=auth/none\nCredType=cred/none\n\
         SlurmUser=root\nSlurmdUser=root\nSlurmctldPort={port}\nSlurmdPort={}\n\
         StateSaveLocation={r}/state\nSlurmdSpoolDir={r}/spool\n\
         SlurmctldPidFile={r}/slurmctld.pid\nSlurmdPidFile={r}/slurmd.pid\n\
         SlurmctldLogFile={r}/slurmctld.log\nSlurmdLogFile={r}/slurmd.log\n\
         ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n\
         JobAcctGatherType=jobacct_gather/none\nSchedulerType=sched/builtin\n\
         SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\nReturnToService=2\n\
         MpiDefault=none\nNodeName={host} CPUs={cpus} State=UNKNOWN\n\
         PartitionName=demo Nodes={host} Default=YES MaxTime=INFINITE State=UP\n",
        port + 1
    ))
}

/// Starts slurmctld and slurmd in the foreground of child processes and waits until the node
/// is idle.
fn start(conf: &Path) -> anyhow::Result<Daemons> {
    let mut daemons = Daemons(Vec::new());
    for (daemon, extra) in [("slurmctld", &["-c"][..]), ("slurmd", &[][..])] {
        let child = Command::new(which(daemon).expect("checked"))
            .arg("-D")
            .args(extra)
            .arg("-f")
            .arg(conf)
            .env("SLURM_CONF", conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {daemon}"))?;
        daemons.0.push(child);
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let out =
            Command::new("sinfo").env("SLURM_CONF", conf).args(["-h", "-o", "%T"]).output()?;
        if String::from_utf8_lossy(&out.stdout).trim() == "idle" {
            return Ok(daemons);
        }
        if Instant::now() > deadline {
            bail!("the node did not come up within a minute: see the logs in {}", conf.display());
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}
