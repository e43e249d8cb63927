// Prints byte vectors made by SRI's own crates (binary_sv2, mining_sv2, common_messages_sv2,
// noise_sv2) for Manjam's SV2 unit tests. Modes: `messages`, `responder`, `initiator` (the two
// Noise modes talk hex lines on stdin/stdout so a TypeScript peer can drive them).
use binary_sv2::{to_bytes, Seq0255, Seq064K, Sv2Option, U256};
use common_messages_sv2::*;
use mining_sv2::*;
use noise_sv2::{Initiator, Responder};
use rand::{rngs::StdRng, SeedableRng};
use secp256k1::{Keypair, Secp256k1, SecretKey, XOnlyPublicKey};
use std::io::BufRead;

const NOW: u32 = 1_767_000_000; // SRI_NOW in sri-fixture.ts
// SRI's test authority keypair (9auqWE…/mkDLTB…), raw bytes.
const AUTH_SECRET: &str = "65995eb19631f478a46ffa5cf1e545091efe950eaeac7482ffdc06eb6a89f697";

fn h(b: &[u8]) -> String { b.iter().map(|x| format!("{:02x}", x)).collect() }
fn unh(s: &str) -> Vec<u8> { (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect() }
fn u256(f: impl Fn(usize) -> u8) -> U256<'static> { let mut a = [0u8; 32]; for i in 0..32 { a[i] = f(i); } let r: &'static [u8; 32] = Box::leak(Box::new(a)); r.into() }
fn s(x: &'static str) -> binary_sv2::Str0255<'static> { x.try_into().unwrap() }

macro_rules! out { ($name:expr, $m:expr) => { println!("{} {}", $name, h(&to_bytes($m).unwrap())); }; }

fn messages() {
    out!("SetupConnection", SetupConnection { protocol: Protocol::MiningProtocol, min_version: 2, max_version: 2, flags: 6,
        endpoint_host: s("pool.manjam.test"), endpoint_port: 34254, vendor: s("Bitmain"), hardware_version: s("S19j Pro"),
        firmware: s("braiins-os-24.03"), device_id: s("dev-42") });
    out!("SetupConnectionSuccess", SetupConnectionSuccess { used_version: 2, flags: 4 });
    out!("SetupConnectionError", SetupConnectionError { flags: 2, error_code: s("unsupported-feature-flags") });
    out!("ChannelEndpointChanged", ChannelEndpointChanged { channel_id: 7 });
    out!("Reconnect", Reconnect { new_host: s("backup.manjam.test"), new_port: 3334 });
    out!("OpenStandardMiningChannel", OpenStandardMiningChannel { request_id: 1, user_identity: s("bc1qexample.rig1"),
        nominal_hash_rate: 1.5e12, max_target: u256(|_| 0xff) });
    out!("OpenStandardMiningChannelSuccess", OpenStandardMiningChannelSuccess { request_id: 1, channel_id: 7,
        target: u256(|i| i as u8), extranonce_prefix: (&[1u8, 2, 3, 4]).try_into().unwrap(), group_channel_id: 9 });
    out!("OpenMiningChannelError", OpenMiningChannelError { request_id: 2, error_code: s("unknown-user") });
    out!("OpenExtendedMiningChannel", OpenExtendedMiningChannel { request_id: 3, user_identity: s("acct.worker"),
        nominal_hash_rate: 1e14, max_target: u256(|_| 0xff), min_extranonce_size: 8 });
    out!("OpenExtendedMiningChannelSuccess", OpenExtendedMiningChannelSuccess { request_id: 3, channel_id: 8,
        target: u256(|i| i as u8), extranonce_size: 8, extranonce_prefix: (&[0xaau8, 0xbb, 0xcc, 0xdd]).try_into().unwrap(), group_channel_id: 9 });
    out!("NewMiningJob", NewMiningJob { channel_id: 7, job_id: 11, min_ntime: Sv2Option::new(Some(1_700_000_000)),
        version: 0x2000_0000, merkle_root: u256(|i| (31 - i) as u8) });
    out!("UpdateChannel", UpdateChannel { channel_id: 7, nominal_hash_rate: 2.5e12, maximum_target: u256(|_| 0x7f) });
    out!("UpdateChannelError", UpdateChannelError { channel_id: 7, error_code: s("max-target-out-of-range") });
    out!("CloseChannel", CloseChannel { channel_id: 7, reason_code: s("shutdown") });
    out!("SetExtranoncePrefix", SetExtranoncePrefix { channel_id: 8, extranonce_prefix: (&[9u8, 8, 7]).try_into().unwrap() });
    out!("SubmitSharesStandard", SubmitSharesStandard { channel_id: 7, sequence_number: 5, job_id: 11, nonce: 0xdead_beef,
        ntime: 1_700_000_001, version: 0x2000_0004 });
    out!("SubmitSharesExtended", SubmitSharesExtended { channel_id: 8, sequence_number: 6, job_id: 12, nonce: 0x0102_0304,
        ntime: 1_700_000_002, version: 0x2000_0000, extranonce: (&[1u8, 2, 3, 4, 5, 6, 7, 8]).try_into().unwrap() });
    out!("SubmitSharesSuccess", SubmitSharesSuccess { channel_id: 8, last_sequence_number: 6, new_submits_accepted_count: 3,
        new_shares_sum: 12_345_678_901 });
    out!("SubmitSharesError", SubmitSharesError { channel_id: 8, sequence_number: 7, error_code: s("invalid-job-id") });
    out!("NewExtendedMiningJob", NewExtendedMiningJob { channel_id: 8, job_id: 12, min_ntime: Sv2Option::new(None),
        version: 0x2000_0000, version_rolling_allowed: true,
        merkle_path: Seq0255::new(vec![u256(|_| 0x11), u256(|_| 0x22)]).unwrap(),
        coinbase_tx_prefix: (&[1u8, 0, 0, 0, 1]).try_into().unwrap(), coinbase_tx_suffix: (&[0xffu8, 0xff, 0xff, 0xff, 0]).try_into().unwrap() });
    out!("SetNewPrevHash", SetNewPrevHash { channel_id: 8, job_id: 12, prev_hash: u256(|i| (i * 3) as u8), min_ntime: 1_700_000_000, nbits: 0x1d00_ffff });
    out!("SetTarget", SetTarget { channel_id: 8, maximum_target: u256(|i| if i < 28 { 0xff } else { 0 }) });
    out!("SetGroupChannel", SetGroupChannel { group_channel_id: 9, channel_ids: Seq064K::new(vec![7u32, 8]).unwrap() });
}

// The recorder reruns this program with one more input line each time; out of input, it stops there.
fn read_line(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> Vec<u8> {
    match lines.next() { Some(Ok(l)) => unh(l.trim()), _ => std::process::exit(0) }
}

// One SV2 frame through the engine the way codec-sv2 does it: header (6) then payload, each its own AEAD message.
fn send(engine: &mut noise_sv2::NoiseEngine, msg_type: u8, payload: &[u8]) -> String {
    let len = payload.len() as u32;
    let mut header = vec![0u8, 0, msg_type, len as u8, (len >> 8) as u8, (len >> 16) as u8];
    engine.encrypt(&mut header).unwrap();
    let mut body = payload.to_vec();
    engine.encrypt(&mut body).unwrap();
    format!("{}{}", h(&header), h(&body))
}
fn recv(engine: &mut noise_sv2::NoiseEngine, wire: &[u8]) -> String {
    let mut header = wire[..22].to_vec();
    if engine.decrypt(&mut header).is_err() { return "refused".into(); }
    let mut body = wire[22..].to_vec();
    if engine.decrypt(&mut body).is_err() { return "refused".into(); }
    format!("{} {}", h(&header), h(&body))
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let secp = Secp256k1::new();
    let auth = Keypair::from_secret_key(&secp, &SecretKey::from_slice(&unh(AUTH_SECRET)).unwrap());
    let mut rng = StdRng::seed_from_u64(29);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    match mode.as_str() {
        "messages" => messages(),
        "responder" => {
            let mut r = Responder::new_with_rng(auth, 3600, &mut rng);
            let act1: [u8; 64] = read_line(&mut lines).try_into().unwrap();
            let (act2, mut engine) = r.step_1_with_now_rng(act1, NOW, &mut rng).unwrap();
            println!("{}", h(&act2));
            println!("{}", send(&mut engine, 0x01, &[2, 0, 4, 0, 0, 0]));
            println!("{}", recv(&mut engine, &read_line(&mut lines)));
        }
        "initiator" => {
            let pk = XOnlyPublicKey::from_keypair(&auth).0;
            let mut i = Initiator::new_with_rng(Some(pk), &mut rng);
            println!("{}", h(&i.step_0().unwrap()));
            let act2: [u8; 234] = read_line(&mut lines).try_into().unwrap();
            match i.step_2_with_now(act2, NOW) {
                Ok(mut engine) => {
                    println!("accepted");
                    println!("{}", send(&mut engine, 0x00, &[0, 2, 0, 2, 0, 6, 0, 0, 0]));
                    println!("{}", recv(&mut engine, &read_line(&mut lines)));
                }
                Err(e) => println!("refused {:?}", e),
            }
        }
        _ => eprintln!("usage: sri-vectors messages|responder|initiator"),
    }
}
