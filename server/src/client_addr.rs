//! Which client a request comes from, for every per-client limit and every stored address.
//!
//! Only proxies named in `TRUST_PROXY` are believed. `X-Forwarded-For` is read from the right:
//! each trusted proxy appends the address it saw, so the rightmost entry that is not a trusted
//! proxy is the client, and anything left of it is whatever the client chose to send.
//!
//! The key is an address in canonical form, and an IPv6 client is its /64 network (one
//! subscriber usually holds a whole /64, so counting single addresses would be no limit at all).
//! It is at most 43 characters, so what is stored is exactly what is counted.

use std::net::IpAddr;
use std::str::FromStr;

use ipnet::{IpNet, Ipv6Net};

/// The proxies whose `X-Forwarded-For` we believe: `127.0.0.1,10.0.0.0/8`; empty trusts none.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(&ip))
    }
}

impl FromStr for TrustedProxies {
    type Err = String;

    fn from_str(list: &str) -> Result<Self, String> {
        list.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| {
                        format!(
                            "`{entry}` is not an address or CIDR (TRUST_PROXY names the proxies \
                             to trust, e.g. 127.0.0.1,10.0.0.0/8)"
                        )
                    })
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }
}

/// The client's key, from the peer's address and every `X-Forwarded-For` header in order.
pub fn client_key<'a>(
    peer: IpAddr,
    forwarded_for: impl IntoIterator<Item = &'a str>,
    trusted: &TrustedProxies,
) -> String {
    let peer = peer.to_canonical();
    if !trusted.contains(peer) {
        return key(peer);
    }
    let hops: Vec<&str> = forwarded_for
        .into_iter()
        .flat_map(|header| header.split(','))
        .map(str::trim)
        .collect();
    // The last address a trusted hop vouches for; a hop we cannot read ends the chain there.
    let mut client = peer;
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>().map(|ip| ip.to_canonical()) {
            Ok(ip) if trusted.contains(ip) => client = ip,
            Ok(ip) => return key(ip),
            Err(_) => break,
        }
    }
    key(client)
}

fn key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => Ipv6Net::new(v6, 64)
            .map(|net| net.trunc().to_string())
            .unwrap_or_else(|_| v6.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trusted(list: &str) -> TrustedProxies {
        list.parse().expect("a valid setting")
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn nothing_trusted_means_the_peer_is_the_client() {
        let none = trusted("");
        assert_eq!(client_key(ip("10.0.0.5"), ["1.2.3.4"], &none), "10.0.0.5");
        assert_eq!(client_key(ip("10.0.0.5"), [], &none), "10.0.0.5");
    }

    #[test]
    fn an_untrusted_peer_cannot_forward_for_anyone() {
        let proxies = trusted("127.0.0.1");
        assert_eq!(
            client_key(ip("203.0.113.9"), ["1.2.3.4"], &proxies),
            "203.0.113.9"
        );
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client_whatever_the_client_forged() {
        let proxies = trusted("127.0.0.1, 10.0.0.0/8");
        // The client sent `X-Forwarded-For: 6.6.6.6`; our two proxies appended after it.
        let chain = ["6.6.6.6, 198.51.100.7, 10.1.2.3"];
        assert_eq!(client_key(ip("127.0.0.1"), chain, &proxies), "198.51.100.7");
        // Several headers are one list, in order.
        let split = ["6.6.6.6", "198.51.100.7", "10.1.2.3"];
        assert_eq!(client_key(ip("127.0.0.1"), split, &proxies), "198.51.100.7");
    }

    #[test]
    fn a_chain_of_only_trusted_hops_ends_at_the_leftmost_of_them() {
        let proxies = trusted("10.0.0.0/8");
        assert_eq!(
            client_key(ip("10.0.0.1"), ["10.9.9.9"], &proxies),
            "10.9.9.9"
        );
        assert_eq!(client_key(ip("10.0.0.1"), [""], &proxies), "10.0.0.1");
    }

    #[test]
    fn garbage_and_overlong_hops_are_never_the_key() {
        let proxies = trusted("127.0.0.1");
        let long = format!("{}, 198.51.100.7", "9".repeat(300));
        assert_eq!(
            client_key(ip("127.0.0.1"), [long.as_str()], &proxies),
            "198.51.100.7"
        );
        let garbage = "198.51.100.7, not-an-address";
        assert_eq!(
            client_key(ip("127.0.0.1"), [garbage], &proxies),
            "127.0.0.1"
        );
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64_network_and_mapped_v4_as_v4() {
        let none = trusted("");
        let a = client_key(ip("2001:db8:1:2:aaaa::1"), [], &none);
        let b = client_key(ip("2001:db8:1:2:bbbb::9"), [], &none);
        assert_eq!(a, "2001:db8:1:2::/64");
        assert_eq!(a, b);
        assert_eq!(client_key(ip("::ffff:192.0.2.1"), [], &none), "192.0.2.1");
        assert!(client_key(ip("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), [], &none).len() <= 43);
    }

    #[test]
    fn the_setting_names_addresses_or_networks_and_rejects_anything_else() {
        assert!(trusted("127.0.0.1,10.0.0.0/8,::1").contains(ip("10.200.0.1")));
        assert!(!trusted("127.0.0.1").contains(ip("127.0.0.2")));
        let err = "true".parse::<TrustedProxies>().expect_err("refused");
        assert!(err.contains("`true`"), "{err}");
    }
}
