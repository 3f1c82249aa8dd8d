//! The `cartera mcp` binary over real pipes (`mcp.md` §7.2): a short session, the exit codes of
//! `mcp.md` §2, a hostile transcript and the sequential-call throughput.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::mcp_support::{assert_pairs_up, failing_server, fixture_ledger, serve_bytes};
use crate::support::cartera;

fn spawn(args: &[&str]) -> Child {
    cartera()
        .arg("mcp")
        .args(args)
        .env("CARTERA_NOW", crate::mcp_support::NOW)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` at most `limit`; returns its exit code, stdout and stderr.
fn finish(mut child: Child, limit: Duration) -> (i32, Vec<u8>, String) {
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        stdout.read_to_end(&mut bytes).unwrap();
        bytes
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("cartera mcp did not exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (
        status.code().unwrap_or(-1),
        out.join().unwrap(),
        err.join().unwrap(),
    )
}

/// Runs `cartera mcp ARGS` with `input` on stdin.
fn run(args: &[&str], input: &[u8], limit: Duration) -> (i32, Vec<u8>, String) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        // The server may exit early (usage errors); a broken pipe is then expected.
        let _ = stdin.write_all(&input);
    });
    let result = finish(child, limit);
    writer.join().unwrap();
    result
}

fn ledger_arg() -> String {
    fixture_ledger().display().to_string()
}

#[test]
fn a_session_over_stdio_answers_each_request_once_and_exits_zero_at_end_of_input() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"smoke","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"portfolio_summary","arguments":{}}}"#,
        "\n",
    );
    let ledger = ledger_arg();
    let (code, stdout, stderr) = run(
        &["--ledger", &ledger],
        input.as_bytes(),
        Duration::from_secs(10),
    );
    assert_eq!(code, 0, "stderr: {stderr}");
    let text = String::from_utf8(stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "stdout: {text}");
    for (line, id) in lines.iter().zip(1..) {
        let value: Value = serde_json::from_str(line).unwrap();
        assert_eq!(value["jsonrpc"], "2.0");
        assert_eq!(value["id"], id);
        assert!(value.get("result").is_some(), "{line}");
    }
    assert!(text.ends_with('\n'));
    assert!(
        stderr.starts_with("cartera mcp "),
        "the startup line goes to stderr: {stderr}"
    );
    assert!(stderr.contains("profile metered"));
}

#[test]
fn usage_errors_exit_2_and_a_missing_ledger_exits_1_with_nothing_on_stdout() {
    let ledger = ledger_arg();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("absent.sqlite");
    let missing = missing.display().to_string();
    let not_a_ledger = dir.path().join("notes.txt");
    std::fs::write(&not_a_ledger, "not a ledger\n").unwrap();
    let not_a_ledger = not_a_ledger.display().to_string();
    let cases: [(&[&str], i32); 11] = [
        (&["--ledger", &ledger, "--profile", "cloud"], 2),
        (&["--ledger", &ledger, "--profile", "mixed"], 2),
        (&["--ledger", &ledger, "--profile", "local"], 2),
        (&["--ledger", &ledger, "--context-window", "8192"], 2),
        (
            &[
                "--ledger",
                &ledger,
                "--profile",
                "local",
                "--context-window",
                "999",
            ],
            2,
        ),
        (&["--ledger", &ledger, "--locale", "espanol"], 2),
        (&["--ledger", &ledger, "--base-currency", "GBP"], 2),
        (&["--ledger", &ledger, "--verbose"], 2),
        (&["--ledger", &ledger, "--context-window"], 2),
        (&["--ledger", &missing], 1),
        (&["--ledger", &not_a_ledger], 1),
    ];
    for (args, expected) in cases {
        let (code, stdout, stderr) = run(args, b"", Duration::from_secs(10));
        assert_eq!(code, expected, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: stdout must stay empty");
        assert_eq!(
            stderr.lines().count(),
            1,
            "{args:?}: one line on stderr: {stderr}"
        );
        assert!(stderr.starts_with("cartera: error"), "{args:?}: {stderr}");
    }
    assert!(
        !Path::new(&missing).exists(),
        "a missing ledger is never created"
    );
    let (code, stdout, _) = run(&["--help"], b"", Duration::from_secs(10));
    assert_eq!(code, 0);
    assert!(
        String::from_utf8(stdout)
            .unwrap()
            .contains("--context-window")
    );
}

#[test]
fn local_profile_and_flags_reach_the_server() {
    let ledger = ledger_arg();
    let input = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
"#;
    let (code, stdout, stderr) = run(
        &[
            "--ledger",
            &ledger,
            "--profile",
            "local",
            "--context-window",
            "8192",
            "--locale",
            "EN-gb",
            "--base-currency",
            "usd",
        ],
        input,
        Duration::from_secs(10),
    );
    assert_eq!(code, 0, "{stderr}");
    let text = String::from_utf8(stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let instructions = lines[0]["result"]["instructions"].as_str().unwrap();
    assert!(
        instructions.contains("locale en-GB. The base currency is USD;"),
        "{instructions}"
    );
    assert_eq!(lines[1]["result"]["tools"].as_array().unwrap().len(), 14);
    assert!(
        stderr.contains("profile local (context window 8192)"),
        "{stderr}"
    );
}

/// Deterministic test noise from the workspace's one generator.
struct Noise(core_domain::rng::SplitMix64);

impl Noise {
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| match (self.0.next_u64() & 0xff) as u8 {
                b'\n' => b' ',
                b => b,
            })
            .collect()
    }
}

const IDS: [&str; 16] = [
    "null",
    "true",
    "false",
    "1.5",
    "-0.0",
    "1e3",
    "[]",
    "{}",
    "\"\"",
    "\"\\u0000\\n\"",
    "-5",
    "0",
    "18446744073709551615",
    "-9223372036854775808",
    "\"🚀\"",
    "123456789012345678901234567890",
];

const SHAPES: [&str; 24] = [
    "[]",
    "[1,2,3]",
    "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
    "[[[]]]",
    "1",
    "-1.5e300",
    "\"ping\"",
    "null",
    "true",
    "{}",
    "{\"jsonrpc\":\"2.0\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":1}",
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":null}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":[\"ping\"]}",
    "{\"jsonrpc\":2,\"id\":4,\"method\":\"ping\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":[1]}",
    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":{}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"explain_metric\",\"arguments\":\"hhi\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"explain_metric\",\"arguments\":{\"metric\":[[[[{}]]]]}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":{\"cursor\":{\"a\":1}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"initialize\",\"params\":{\"protocolVersion\":null}}",
    "{\"jsonrpc\":\"2.0\",\"id\":11,\"result\":null}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"kpis\",\"arguments\":{\"x\":1}}}",
];

/// The hostile transcript: 10,000 lines, about one in five a good `ping` that must be answered.
fn hostile_input() -> (Vec<u8>, usize) {
    let mut noise = Noise(core_domain::rng::SplitMix64::new(0x9e37_79b9_7f4a_7c15));
    let mut input = Vec::new();
    let mut good = 0;
    for n in 0..10_000_usize {
        let line: Vec<u8> = match n {
            // Lines of several megabytes: junk, and a well-formed request with a huge string.
            1000 | 7000 => noise.bytes(3 << 20),
            4000 => {
                let mut line = b"{\"jsonrpc\":\"2.0\",\"id\":\"huge\",\"method\":\"ping\",\"params\":{\"pad\":\"".to_vec();
                line.extend(std::iter::repeat_n(b'x', 2 << 20));
                line.extend_from_slice(b"\"}}");
                line
            }
            // Just under the cap: parsed and answered.
            5000 => {
                let mut line = b"{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":{\"pad\":\"".to_vec();
                line.extend(std::iter::repeat_n(b'y', (1 << 20) - 100));
                line.extend_from_slice(b"\"}}");
                line
            }
            // Deep nesting.
            6000 => "[".repeat(100_000).into_bytes(),
            6001 => "{\"a\":".repeat(50_000).into_bytes(),
            _ => match noise.below(9) {
                0 => {
                    let len = 1 + noise.below(300) as usize;
                    noise.bytes(len)
                }
                1 => {
                    let mut line = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\"".to_vec();
                    let len = 1 + noise.below(8) as usize;
                    line.extend(noise.bytes(len).iter().map(|b| b | 0x80));
                    line.extend_from_slice(b"\"}");
                    line
                }
                2 => SHAPES[noise.below(SHAPES.len() as u64) as usize].as_bytes().to_vec(),
                3 => format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}}",
                    IDS[noise.below(IDS.len() as u64) as usize]
                )
                .into_bytes(),
                4 => format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{n},\"method\":\"notifications/initialized\"}}"
                )
                .into_bytes(),
                5 => format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":\"call-{n}\",\"method\":\"tools/call\",\"params\":{{\"name\":\"explain_metric\",\"arguments\":{{\"metric\":\"{}\"}}}}}}",
                    ["hhi", "sharpe", "nope", "HHI"][noise.below(4) as usize]
                )
                .into_bytes(),
                6 => {
                    let mut line = format!("{{\"jsonrpc\":\"2.0\",\"id\":\"cut-{n}\",\"method\":\"ping\"}}").into_bytes();
                    let cut = noise.below(line.len() as u64) as usize;
                    line.truncate(cut);
                    line
                }
                _ => {
                    good += 1;
                    format!("{{\"jsonrpc\":\"2.0\",\"id\":\"good-{n}\",\"method\":\"ping\"}}")
                        .into_bytes()
                }
            },
        };
        input.extend_from_slice(&line);
        input.extend_from_slice(if n % 7 == 0 { b"\r\n" } else { b"\n" });
    }
    (input, good)
}

fn assert_good_lines_answered(output: &[u8], good: usize) {
    let text = std::str::from_utf8(output).unwrap();
    let answered = text
        .lines()
        .filter(|line| line.starts_with("{\"jsonrpc\":\"2.0\",\"id\":\"good-"))
        .inspect(|line| assert!(line.ends_with(",\"result\":{}}"), "{line}"))
        .count();
    assert_eq!(answered, good);
}

#[test]
fn a_hostile_transcript_never_stops_the_server() {
    let (input, good) = hostile_input();
    assert!(good > 1000);
    // In process.
    let (output, _) = serve_bytes(&failing_server(ai_tools::Profile::Metered), &input);
    assert_pairs_up(&input, &output);
    assert_good_lines_answered(&output, good);
    // Over real pipes: the same bytes out, exit 0.
    let ledger = ledger_arg();
    let (code, stdout, stderr) = run(&["--ledger", &ledger], &input, Duration::from_secs(120));
    assert_eq!(code, 0, "{}", stderr.lines().last().unwrap_or_default());
    assert_pairs_up(&input, &stdout);
    assert_good_lines_answered(&stdout, good);
}

/// 10,000 sequential `tools/call` requests to one process (`performance.md`: ≤ 5 s in a
/// release build; the figure is printed). A debug build gets a looser ceiling.
#[test]
fn ten_thousand_sequential_calls() {
    let ledger = ledger_arg();
    let mut child = spawn(&["--ledger", &ledger]);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut stderr = child.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let started = Instant::now();
    let mut line = String::new();
    for id in 0..10_000 {
        // One request at a time: the next is written after the previous answer arrived.
        writeln!(
            stdin,
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/call\",\"params\":{{\"name\":\"explain_metric\",\"arguments\":{{\"metric\":\"hhi\"}}}}}}"
        )
        .unwrap();
        stdin.flush().unwrap();
        line.clear();
        stdout.read_line(&mut line).unwrap();
        assert!(
            line.starts_with(&format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":")),
            "{line}"
        );
    }
    let elapsed = started.elapsed();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{}", log.join().unwrap());
    eprintln!("10,000 sequential tools/call over stdio: {elapsed:?}");
    let ceiling = if cfg!(debug_assertions) { 30 } else { 5 };
    assert!(elapsed < Duration::from_secs(ceiling), "{elapsed:?}");
}
