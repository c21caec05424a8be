//! A whole message through a [`Processor`]: the builder calls every test
//! would otherwise repeat, then `update` at given cuts and `finish`.

use skinny::Skinny;
use skinny_bulk::backend::{self, Backend, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use skinny_bulk::Error;

/// A processor on `be` for (`c`, `mode`, `dir`), with `iv` when given, and
/// PKCS#7 padding when `pad` (block modes only: the others take no padding).
pub fn processor(
    be: &dyn Backend,
    c: &Skinny,
    mode: Mode,
    dir: Direction,
    iv: Option<&[u8]>,
    pad: bool,
) -> Result<Processor, Error> {
    let mut b = Processor::builder(c, mode, dir).backend(be);
    if let Some(iv) = iv {
        b = b.iv(iv);
    }
    if mode.is_block_mode() {
        b = b.padding(if pad { Padding::Pkcs7 } else { Padding::None });
    }
    b.build()
}

/// `data` through a [`processor`]: `update` with the pieces of the sizes in
/// `cuts` (cut short at the end of `data`), then with the rest, then `finish`.
#[allow(clippy::too_many_arguments)]
pub fn run(
    be: &dyn Backend,
    c: &Skinny,
    mode: Mode,
    dir: Direction,
    iv: Option<&[u8]>,
    pad: bool,
    data: &[u8],
    cuts: &[usize],
) -> Result<Vec<u8>, Error> {
    let mut p = processor(be, c, mode, dir, iv, pad)?;
    let mut out = Vec::new();
    let mut pos = 0;
    for &cut in cuts {
        let end = (pos + cut).min(data.len());
        p.update(&data[pos..end], &mut out)?;
        pos = end;
    }
    p.update(&data[pos..], &mut out)?;
    p.finish(&mut out)?;
    Ok(out)
}

/// The portable `cpu-serial` backend, the reference the others are checked against.
pub fn cpu_serial() -> Box<dyn Backend> {
    backend::open(BackendChoice::CpuSerial, &Options::default()).expect("cpu-serial always opens")
}
