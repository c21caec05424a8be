use super::split_queries;

#[test]
fn ranges_are_disjoint_contiguous_and_cover_the_shard() {
    for &(s, e, n) in &[(0u64, 10u64, 3usize), (5, 6, 4), (7, 7, 2), (0, 1 << 40, 8), (100, 1000, 1)] {
        let parts = split_queries(s..e, n);
        assert!(parts.len() <= n);
        let mut at = s;
        for p in &parts {
            assert_eq!(p.start, at);
            assert!(!p.is_empty());
            at = p.end;
        }
        assert_eq!(at, e.max(s));
        let lens: Vec<u64> = parts.iter().map(|p| p.end - p.start).collect();
        if let (Some(a), Some(b)) = (lens.iter().max(), lens.iter().min()) {
            assert!(a - b <= 1);
        }
    }
}
