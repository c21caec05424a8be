//! What a time covers: end to end, the kernel alone, pageable copies, or cold.

/// What a time covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Host buffer in, host buffer out: transfers and launch overhead included,
    /// through the engine's fastest path (pinned double-buffering for GPU calls
    /// of several MiB).
    EndToEnd,
    /// The kernel alone on resident data, timed with device events.
    Kernel,
    /// End to end through plain copies from and to pageable host memory, one
    /// piece at a time (the paper's way); GPU backends only.
    Pageable,
    /// Everything per operation, as a program that does one job would see it:
    /// opening an engine for the key (module instance, key and table upload,
    /// stream), device allocation, plain pageable copies, the kernel, and
    /// freeing it all again; GPU backends only.
    Cold,
}

impl Timing {
    /// Every timing, in the order measured.
    pub const ALL: [Timing; 4] = [Timing::EndToEnd, Timing::Kernel, Timing::Pageable, Timing::Cold];

    /// The name in CSV and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Timing::EndToEnd => "end-to-end",
            Timing::Kernel => "kernel",
            Timing::Pageable => "pageable",
            Timing::Cold => "cold",
        }
    }

    /// The short name in series labels (`gpu-paper e2e`).
    pub const fn short(self) -> &'static str {
        match self {
            Timing::EndToEnd => "e2e",
            Timing::Kernel => "kernel",
            Timing::Pageable => "pageable",
            Timing::Cold => "cold",
        }
    }

    /// From [`Timing::name`] or [`Timing::short`], any case, blanks around ignored.
    pub fn from_name(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(s) || t.short().eq_ignore_ascii_case(s))
    }

    /// Index into per-timing arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::Timing;

    #[test]
    fn names_round_trip() {
        for t in Timing::ALL {
            assert_eq!(Timing::from_name(t.name()), Some(t));
            assert_eq!(Timing::from_name(&format!(" {} ", t.short().to_uppercase())), Some(t));
            assert_eq!(Timing::ALL[t.index()], t);
        }
        assert_eq!(Timing::from_name("lukewarm"), None);
    }
}
