//! From the chunks' output images back to one [`Output`]: the output bytes
//! back to back, each message's end, and its status (open: the kernel's word,
//! or forged for data shorter than a tag; too long for its scheme's counter).

use super::layout::{Chunk, Pass};
use crate::{MessageError, Output};
use zeroize::Zeroizing;

/// The [`Output`] of `chunks`, whose output images `image(k)` gives.
pub(crate) fn output<'a>(chunks: &[Chunk], pass: Pass, image: impl Fn(usize) -> &'a [u8]) -> Output {
    let total: usize = chunks.iter().map(|c| c.out_ends.last().map_or(0, |&e| e as usize)).sum();
    let messages: usize = chunks.iter().map(|c| c.messages.len()).sum();
    let mut bytes = Zeroizing::new(Vec::with_capacity(total));
    let mut ends = Vec::with_capacity(messages);
    let mut status = Vec::with_capacity(messages);
    for (k, c) in chunks.iter().enumerate() {
        let img = image(k);
        let base = bytes.len();
        let len = c.out_ends.last().map_or(0, |&e| e as usize);
        bytes.extend_from_slice(&img[c.sections.out..c.sections.out + len]);
        ends.extend(c.out_ends.iter().map(|&e| base + e as usize));
        let first = status.len();
        match pass {
            Pass::Seal => status.extend(core::iter::repeat_n(Ok(()), c.messages.len())),
            Pass::Open => {
                let words = &img[c.sections.status..c.sections.status + 4 * c.messages.len()];
                status.extend(words.chunks_exact(4).map(|w| {
                    if u32::from_le_bytes([w[0], w[1], w[2], w[3]]) == 0 {
                        Ok(())
                    } else {
                        Err(MessageError::Forged)
                    }
                }));
                for &s in &c.short {
                    status[first + s as usize] = Err(MessageError::Forged);
                }
            }
        }
        for &s in &c.too_long {
            status[first + s as usize] = Err(MessageError::TooLong);
        }
    }
    Output::from_parts(bytes, ends, status)
}
