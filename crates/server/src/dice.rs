//! Dice anyone can check: commit, draw, reveal.
//!
//! At creation the server draws a fresh 32-byte seed and publishes its SHA-256 (the
//! *commitment*). Chance point number `index` (counted over the game's steps) draws its face
//! from HMAC-SHA256(key = server seed, message = the seats' own seeds joined by `,`, then
//! `:index:counter`), read as a 64-bit number and used only below the largest multiple of
//! the outcomes' total weight (a draw above it takes the next counter), so every face has
//! exactly its weight's chance — no modulo bias. When the game ends the seed is revealed and
//! anyone can recompute every die ([`face`]) and check the commitment ([`commitment`]).

use battlemat_core::ChanceOutcome;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

/// Hex of bytes.
pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// SHA-256 of `bytes`, in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The published commitment to a server seed (given in hex).
pub fn commitment(server_seed_hex: &str) -> String {
    sha256_hex(server_seed_hex.as_bytes())
}

/// Fresh random bytes from the operating system, in hex.
pub fn random_hex(n: usize) -> Result<String, String> {
    let mut b = vec![0u8; n];
    getrandom::fill(&mut b).map_err(|e| format!("no random source: {e}"))?;
    Ok(hex(&b))
}

/// The face chance point `index` shows, from its outcomes and their integer weights.
pub fn face(
    server_seed: &str,
    seat_seeds: &[String],
    index: u64,
    outcomes: &[ChanceOutcome],
) -> u32 {
    let total: u64 = outcomes.iter().map(|o| o.weight).sum();
    if total == 0 || outcomes.is_empty() {
        return outcomes.first().map_or(0, |o| o.value);
    }
    let zone = (u64::MAX / total) * total;
    let mut counter = 0u64;
    let x = loop {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(server_seed.as_bytes())
            .expect("HMAC takes a key of any length");
        mac.update(seat_seeds.join(",").as_bytes());
        mac.update(format!(":{index}:{counter}").as_bytes());
        let out = mac.finalize().into_bytes();
        let mut w = [0u8; 8];
        w.copy_from_slice(&out[..8]);
        let v = u64::from_be_bytes(w);
        if v < zone {
            break v % total;
        }
        counter += 1;
    };
    let mut left = x;
    for o in outcomes {
        if left < o.weight {
            return o.value;
        }
        left -= o.weight;
    }
    outcomes[outcomes.len() - 1].value
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d6() -> Vec<ChanceOutcome> {
        (1..=6)
            .map(|v| ChanceOutcome {
                value: v,
                weight: 1,
            })
            .collect()
    }

    /// The same seed, seats' seeds and index always give the same face; another index or a
    /// seat's own seed changes the stream; faces follow their weights.
    #[test]
    fn faces_are_a_function_of_the_seeds_and_follow_the_weights() {
        let s = "00ff";
        assert_eq!(face(s, &[], 3, &d6()), face(s, &[], 3, &d6()));
        let a: Vec<u32> = (0..64).map(|i| face(s, &[], i, &d6())).collect();
        let b: Vec<u32> = (0..64)
            .map(|i| face(s, &["beef".into()], i, &d6()))
            .collect();
        assert_ne!(a, b);
        let mut counts = [0u32; 7];
        for i in 0..6000 {
            counts[face(s, &[], i, &d6()) as usize] += 1;
        }
        for c in &counts[1..] {
            assert!((850..1150).contains(c), "{counts:?}");
        }
        // A weighted point: 3 to 1.
        let w = vec![
            ChanceOutcome {
                value: 0,
                weight: 3,
            },
            ChanceOutcome {
                value: 1,
                weight: 1,
            },
        ];
        let ones = (0..4000).filter(|&i| face(s, &[], i, &w) == 1).count();
        assert!((850..1150).contains(&ones), "{ones}");
        assert_eq!(commitment("ab"), sha256_hex(b"ab"));
    }
}
