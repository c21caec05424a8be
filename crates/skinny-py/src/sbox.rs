//! The S-boxes' exact tables (`skinny.sbox`): SKINNY's S4 and S8 or any
//! permutation of up to 8 bits, computed by `skinny_lab::tables` with the GIL
//! released and handed to numpy without a copy. The Python module
//! (`python/skinny/sbox.py`) checks and converts its arguments and carries
//! the docstrings.

use crate::errors::Error;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use skinny_lab::tables::{self, export, Sbox, Table, TableError};

/// An S-box as Python gives it: `"s4"`, `"s8"`, or the values of a table
/// (already a list of ints: the Python side converts arrays).
#[derive(FromPyObject)]
pub enum SboxArg {
    /// `"s4"` or `"s8"`.
    Name(String),
    /// `table[x]` = S(x).
    Values(Vec<i64>),
}

fn table_error(e: TableError) -> PyErr {
    Error::input(e.to_string()).into()
}

impl SboxArg {
    fn resolve(self) -> PyResult<Sbox> {
        match self {
            SboxArg::Name(name) => match name.to_ascii_lowercase().as_str() {
                "s4" => Ok(Sbox::s4()),
                "s8" => Ok(Sbox::s8()),
                _ => Err(Error::input(format!("sbox must be \"s4\", \"s8\" or a permutation, not {name:?}")).into()),
            },
            SboxArg::Values(values) => {
                let mut bytes = Vec::with_capacity(values.len());
                for (x, &v) in values.iter().enumerate() {
                    let b = u8::try_from(v)
                        .map_err(|_| Error::input(format!("sbox[{x}] = {v} is not a value from 0 to 255")))?;
                    bytes.push(b);
                }
                Sbox::new(&bytes).map_err(table_error)
            }
        }
    }
}

/// ``(table, inverse)`` of ``"s4"`` or ``"s8"`` as bytes.
#[pyfunction]
pub fn sbox_values<'py>(py: Python<'py>, name: &str) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let s = SboxArg::Name(name.to_owned()).resolve()?;
    Ok((PyBytes::new(py, s.table()), PyBytes::new(py, s.inverse())))
}

/// A computed table on its way to numpy.
enum Computed {
    Counts(Table<u16>),
    Signed(Table<i32>),
}

fn to_numpy<T: numpy::Element + Copy>(py: Python<'_>, t: Table<T>) -> PyResult<Bound<'_, PyAny>> {
    let shape = t.shape();
    Ok(PyArray1::from_vec(py, t.into_vec()).reshape(shape)?.into_any())
}

/// One table of the S-box (``uint16`` counts, ``int32`` signed tables), or a
/// slice of the UBCT, LBCT or EBCT.
#[pyfunction]
#[pyo3(signature = (table, sbox, delta_in=None, nabla_out=None))]
pub fn sbox_table<'py>(
    py: Python<'py>,
    table: &str,
    sbox: SboxArg,
    delta_in: Option<i64>,
    nabla_out: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = sbox.resolve()?;
    let index = |name: &str, v: Option<i64>| -> PyResult<Option<usize>> {
        v.map(|v| usize::try_from(v).map_err(|_| Error::input(format!("{name} must be at least 0, not {v}")).into()))
            .transpose()
    };
    let (delta_in, nabla_out) = (index("delta_in", delta_in)?, index("nabla_out", nabla_out)?);
    let slice_of = matches!(table, "ubct" | "lbct" | "ebct");
    if !slice_of && (delta_in.is_some() || nabla_out.is_some()) {
        return Err(Error::input(format!(
            "the {table} has no slices: delta_in and nabla_out are for ubct, lbct and ebct"
        ))
        .into());
    }
    if table != "ebct" && nabla_out.is_some() {
        return Err(Error::input("nabla_out is for ebct slices only").into());
    }
    if table == "ebct" && delta_in.is_some() != nabla_out.is_some() {
        return Err(Error::input("an ebct slice takes both delta_in and nabla_out").into());
    }
    let name = table.to_owned();
    let computed = py.detach(move || -> Result<Computed, String> {
        let t = match (name.as_str(), delta_in, nabla_out) {
            ("ddt", ..) => Computed::Counts(tables::ddt(&s)),
            ("lat", ..) => Computed::Signed(tables::lat(&s)),
            ("bct", ..) => Computed::Counts(tables::bct(&s)),
            ("dlct", ..) => Computed::Signed(tables::dlct(&s)),
            ("ddlct", ..) => Computed::Signed(tables::ddlct(&s)),
            ("ubct", None, _) => Computed::Counts(tables::ubct(&s)),
            ("ubct", Some(d), _) => Computed::Counts(tables::ubct_slice(&s, d).map_err(|e| e.to_string())?),
            ("lbct", None, _) => Computed::Counts(tables::lbct(&s)),
            ("lbct", Some(d), _) => Computed::Counts(tables::lbct_slice(&s, d).map_err(|e| e.to_string())?),
            ("ebct", Some(d), Some(n)) => Computed::Counts(tables::ebct_slice(&s, d, n).map_err(|e| e.to_string())?),
            ("ebct", ..) => Computed::Counts(tables::ebct(&s).map_err(|e| e.to_string())?),
            (other, ..) => {
                return Err(format!("table must be one of ddt, lat, bct, dlct, ubct, lbct, ebct, ddlct, not {other:?}"))
            }
        };
        Ok(t)
    });
    match computed.map_err(Error::input)? {
        Computed::Counts(t) => to_numpy(py, t),
        Computed::Signed(t) => to_numpy(py, t),
    }
}

/// The DDT, BCT, LAT or DLCT as ``"csv"``, ``"transitions"`` or ``"pla"`` text.
#[pyfunction]
pub fn sbox_export(py: Python<'_>, table: &str, sbox: SboxArg, format: &str) -> PyResult<String> {
    let s = sbox.resolve()?;
    let (table, format) = (table.to_owned(), format.to_owned());
    let text = py.detach(move || -> Result<String, String> {
        let (counts, signed, weight) = match table.as_str() {
            "ddt" => (Some(tables::ddt(&s)), None, export::Weight::Probability),
            "bct" => (Some(tables::bct(&s)), None, export::Weight::Probability),
            "lat" => (None, Some(tables::lat(&s)), export::Weight::SquaredCorrelation),
            "dlct" => (None, Some(tables::dlct(&s)), export::Weight::SquaredCorrelation),
            other => return Err(format!("export takes the ddt, bct, lat or dlct, not {other:?}")),
        };
        let text = match (format.as_str(), counts, signed) {
            ("csv", Some(t), _) => export::csv(&t),
            ("csv", _, Some(t)) => export::csv(&t),
            ("transitions", Some(t), _) => export::transitions(&t, weight).map(|l| export::transitions_csv(&l)),
            ("transitions", _, Some(t)) => export::transitions(&t, weight).map(|l| export::transitions_csv(&l)),
            ("pla", Some(t), _) => export::pla(&t, weight),
            ("pla", _, Some(t)) => export::pla(&t, weight),
            (other, ..) => return Err(format!("format must be \"csv\", \"transitions\" or \"pla\", not {other:?}")),
        };
        text.map_err(|e| e.to_string())
    });
    text.map_err(|e| Error::input(e).into())
}
