//! What a bench reads of the machine and of its own process: the processor, the peak
//! resident memory, the processor time.

/// The peak resident memory of this process, KiB (Linux `VmHWM`; 0 elsewhere).
pub fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

/// The processor of this machine, as `/proc/cpuinfo` gives it (Linux; "unknown" elsewhere):
/// model name, family and model numbers, the widest vector extension (the contact and
/// motion loops are compiled for it, `.cargo/config.toml`) and the number of CPUs. Benches
/// made on different processors do not compare (the machine behind this project's 2 cores
/// was an AVX-512 EPYC when RESULTS.md was measured, and an AVX2 one in later sessions).
pub fn machine() -> String {
    let Ok(text) = std::fs::read_to_string("/proc/cpuinfo") else {
        return "unknown".into();
    };
    describe_cpu(&text)
}

/// [`machine`] from the text of `/proc/cpuinfo`.
pub fn describe_cpu(cpuinfo: &str) -> String {
    let field = |name: &str| {
        cpuinfo.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == name).then(|| v.trim().to_string())
        })
    };
    let cpus = cpuinfo
        .lines()
        .filter(|l| l.split(':').next().map(str::trim) == Some("processor"))
        .count();
    let flags = field("flags").unwrap_or_default();
    let has = |f: &str| flags.split_whitespace().any(|x| x == f);
    let vector = if has("avx512f") {
        "AVX-512"
    } else if has("avx2") {
        "AVX2, no AVX-512"
    } else if has("avx") {
        "AVX"
    } else {
        "SSE"
    };
    format!(
        "{}, family {} model {}, {vector}, {cpus} CPU{}",
        field("model name").unwrap_or_else(|| "unknown processor".into()),
        field("cpu family").unwrap_or_else(|| "?".into()),
        field("model").unwrap_or_else(|| "?".into()),
        if cpus == 1 { "" } else { "s" },
    )
}

/// CPU time of this process so far (user + system), s; 0 where unavailable.
pub(super) fn cpu_seconds() -> f64 {
    // /proc/self/stat fields 14 and 15: utime and stime in clock ticks (100 per second on
    // Linux unless configured otherwise).
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let after = s.rsplit_once(')')?.1;
            let f: Vec<&str> = after.split_whitespace().collect();
            let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
            Some(ticks / 100.0)
        })
        .unwrap_or(0.0)
}
