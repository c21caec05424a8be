//! The pipeline without any cipher: the work reverses each piece's bytes, so
//! the output shows which pieces were worked on and in which order.
use super::*;

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

/// What the pipeline must write: every piece of `piece` bytes reversed.
fn reversed(input: &[u8], piece: usize) -> Vec<u8> {
    input.chunks(piece).flat_map(|c| c.iter().rev().copied().collect::<Vec<_>>()).collect()
}

fn reverse_all(w: &mut Window) -> Result<(), &'static str> {
    for p in &mut w.input {
        p.reverse();
    }
    w.write_all_in_place();
    Ok(())
}

#[test]
fn every_piece_once_in_order_with_the_last_marked() {
    for (len, piece, window) in
        [(0, 16, 1), (1, 16, 1), (16, 16, 1), (32, 16, 1), (33, 16, 2), (1000, 7, 3), (4096, 64, 5)]
    {
        let input = data(len);
        let shape = Shape::new(piece, piece, window);
        let mut seen = Vec::new();
        let mut lasts = 0;
        let mut progressed = 0u64;
        let mut progress = |n: u64| progressed += n;
        let out = run(
            &input[..],
            Vec::new(),
            &shape,
            |w: &mut Window| {
                seen.push((w.first, w.input.len()));
                lasts += usize::from(w.last);
                reverse_all(w)
            },
            Some(&mut progress),
        )
        .unwrap();
        assert_eq!(out, reversed(&input, piece), "{len} {piece} {window}");
        assert_eq!(progressed, len as u64);
        assert_eq!(lasts, 1, "exactly one last window");
        let pieces: u64 = seen.iter().map(|s| s.1 as u64).sum();
        // An empty input is one empty piece; otherwise whole pieces plus a short one.
        assert_eq!(pieces, len.div_ceil(piece).max(1) as u64, "{len} {piece} {window}");
        for pair in seen.windows(2) {
            assert_eq!(pair[0].0 + pair[0].1 as u64, pair[1].0, "no piece skipped");
        }
        assert!(seen.iter().all(|s| s.1 <= window + 1), "{seen:?}");
    }
}

#[test]
fn a_failing_window_writes_what_it_allows_then_stops() {
    let input = data(100 * 8);
    let shape = Shape::new(8, 8, 4);
    let mut out = Vec::new();
    let r = run(
        &input[..],
        &mut out,
        &shape,
        |w: &mut Window| {
            if w.first >= 20 {
                w.write = 1; // one piece before the failure
                return Err("bad chunk");
            }
            reverse_all(w)
        },
        None,
    );
    assert!(matches!(r, Err(PipelineError::Work("bad chunk"))), "{r:?}");
    // Windows of 4 pieces: 0-3 .. 16-19 whole, then piece 20 as read.
    assert_eq!(out.len(), 21 * 8);
    assert_eq!(&out[..20 * 8], &reversed(&input[..20 * 8], 8)[..]);
}

struct FailingReader(usize);
impl Read for FailingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0 == 0 {
            return Err(io::Error::other("disk gone"));
        }
        let n = buf.len().min(self.0);
        buf[..n].fill(1);
        self.0 -= n;
        Ok(n)
    }
}

#[derive(Debug)]
struct FailingWriter;
impl Write for FailingWriter {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn read_and_write_errors_say_which_side() {
    let shape = Shape::new(16, 16, 2);
    let r = run(FailingReader(100), Vec::new(), &shape, reverse_all, None);
    assert!(matches!(r, Err(PipelineError::Read(_))), "{r:?}");
    // The writer's error wins over the work's later one.
    let input = data(1 << 16);
    let r = run(
        &input[..],
        FailingWriter,
        &shape,
        |w: &mut Window| if w.first > 100 { Err("late") } else { reverse_all(w) },
        None,
    );
    assert!(matches!(r, Err(PipelineError::Write(ref e)) if e.kind() == io::ErrorKind::BrokenPipe), "{r:?}");
}

#[test]
fn the_window_may_change_on_the_way_and_the_output_does_not() {
    let input = data(5000);
    let shape = Shape::new(10, 10, 1);
    let mut sizes = Vec::new();
    let out = run(
        &input[..],
        Vec::new(),
        &shape,
        |w: &mut Window| {
            sizes.push(w.input.len());
            if w.first == 30 {
                shape.window.store(16, Ordering::Release);
            }
            reverse_all(w)
        },
        None,
    )
    .unwrap();
    assert_eq!(out, reversed(&input, 10));
    assert!(sizes.contains(&16), "{sizes:?}");
}

#[test]
fn work_may_write_from_its_own_buffers() {
    let input = data(300);
    let shape = Shape::new(32, 48, 2);
    let out = run(
        &input[..],
        Vec::new(),
        &shape,
        |w: &mut Window| -> Result<(), ()> {
            w.output.resize_with(w.input.len(), Buf::default);
            for (o, i) in w.output.iter_mut().zip(&w.input) {
                o.clear();
                o.extend_from_slice(&i[..i.len().min(4)]);
            }
            w.write = w.input.len();
            w.from = WriteFrom::Output;
            Ok(())
        },
        None,
    )
    .unwrap();
    let want: Vec<u8> = input.chunks(32).flat_map(|c| c[..c.len().min(4)].to_vec()).collect();
    assert_eq!(out, want);
}
