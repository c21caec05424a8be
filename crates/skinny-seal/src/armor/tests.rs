use super::*;

fn armor(data: &[u8], piece: usize) -> Vec<u8> {
    let mut w = ArmoredWriter::new(Vec::new());
    for part in data.chunks(piece.max(1)) {
        w.write_all(part).unwrap();
    }
    w.finish().unwrap()
}

fn dearmor(text: &[u8], piece: usize) -> io::Result<Vec<u8>> {
    let mut r = ArmoredReader::new(text);
    let mut out = Vec::new();
    let mut buf = vec![0u8; piece];
    loop {
        match r.read(&mut buf)? {
            0 => return Ok(out),
            n => out.extend_from_slice(&buf[..n]),
        }
    }
}

fn bytes(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i * 131 + 7) as u8).collect()
}

/// Every length around the line (48 bytes) and base64 (3 bytes) boundaries,
/// written and read in pieces of several sizes.
#[test]
fn round_trip_of_every_length_around_the_boundaries() {
    for n in (0..=200).chain([48 * 20 - 1, 48 * 20, 48 * 20 + 1, 70_000]) {
        let data = bytes(n);
        for piece in [1, 5, 48, 49, 4096] {
            let text = armor(&data, piece);
            assert_eq!(text, armor(&data, 1 << 20), "the same armor however it is written");
            assert_eq!(dearmor(&text, piece).unwrap(), data, "{n} bytes, pieces of {piece}");
        }
        let text = String::from_utf8(armor(&data, 4096)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], BEGIN);
        assert_eq!(*lines.last().unwrap(), END);
        assert!(text.ends_with(&format!("{END}\n")));
        let data_lines = &lines[1..lines.len() - 1];
        assert_eq!(data_lines.len(), n.div_ceil(48), "{n}");
        for (i, l) in data_lines.iter().enumerate() {
            if i + 1 < data_lines.len() {
                assert_eq!(l.len(), 64, "{n}");
            } else {
                assert_eq!(l.len(), (n - 48 * i).div_ceil(3) * 4, "{n}");
            }
        }
    }
}

#[test]
fn known_answers_and_binary_pass_through() {
    // RFC 4648 section 10's vectors, one line each.
    for (plain, b64) in [("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
        let text = armor(plain.as_bytes(), 100);
        assert_eq!(text, format!("{BEGIN}\n{b64}\n{END}\n").into_bytes());
    }
    assert_eq!(armor(b"", 1), format!("{BEGIN}\n{END}\n").into_bytes());
    // Not armor: the bytes unchanged, however short.
    for data in [&b""[..], b"S", b"SKINNYSEAL\x02rest of a file", &bytes(100_000)] {
        let mut r = ArmoredReader::new(data);
        assert!(!r.is_armored().unwrap());
        assert_eq!(dearmor(data, 7).unwrap(), data);
        assert_eq!(dearmor(data, 1 << 16).unwrap(), data);
    }
    // The END line's newline may be missing.
    let text = armor(b"foo", 1);
    assert_eq!(dearmor(&text[..text.len() - 1], 3).unwrap(), b"foo");
}

/// Every change of the armor's form is refused, in one line that starts
/// with `armor:`, and again on the next read.
#[test]
fn every_tamper_of_the_armor_is_refused_in_one_line() {
    let data = bytes(100); // lines of 64, 64 and 8 characters
    let good = String::from_utf8(armor(&data, 100)).unwrap();
    let lines: Vec<String> = good.lines().map(String::from).collect();
    let join = |ls: &[String]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
    let with = |i: usize, l: &str| {
        let mut ls = lines.clone();
        ls[i] = l.to_string();
        join(&ls)
    };
    let mut cases: Vec<(&str, String)> = vec![
        ("another label", good.replace("SKINNY SEALED FILE-----\n", "AGE ENCRYPTED FILE-----\n")),
        ("BEGIN line with a space", good.replacen(BEGIN, &format!("{BEGIN} "), 1)),
        ("CRLF lines", good.replace('\n', "\r\n")),
        ("short full line", with(1, &lines[1][..63])),
        ("long full line", with(1, &format!("{}A", lines[1]))),
        ("not a multiple of 4", with(3, &lines[3][..7])),
        ("padding inside", with(1, &format!("{}=", &lines[1][..63]))),
        ("padding in the middle of the last line", with(3, &format!("Zg=={}", &lines[3][4..]))),
        ("three pads", with(3, &format!("{}A===", &lines[3][..4]))),
        ("unused bits not zero", with(3, &format!("{}Zh==", &lines[3][..4]))),
        ("unused bits not zero, one pad", with(3, &format!("{}Zm9=", &lines[3][..4]))),
        ("a character outside base64", with(2, &format!("{}-", &lines[2][..63]))),
        ("a trailing space", with(3, &format!("{} ", lines[3]))),
        ("a blank line", good.replacen(&format!("{}\n", lines[2]), &format!("{}\n\n", lines[2]), 1)),
        ("short line before a full one", join(&[&lines[..1], &lines[3..4], &lines[1..]].concat())),
        ("no END line", join(&lines[..4])),
        ("END line changed", good.replace(END, "-----END SKINNY SEALED FILE----")),
        ("data after END", format!("{good}x")),
        ("a newline after END", format!("{good}\n")),
        ("a second armor after END", format!("{good}{good}")),
        ("cut inside a line", good[..good.len() - END.len() - 6].to_string()),
        ("cut at a line's end", good[..good.len() - END.len() - 1].to_string()),
        ("a line after a padded full line", {
            let full = armor(&bytes(47), 100); // one line of 64 ending in '='
            let s = String::from_utf8(full).unwrap();
            s.replace(END, &format!("AAAA\n{END}"))
        }),
    ];
    cases.push(("lower-case END", good.replace(END, &END.to_lowercase())));
    assert_eq!(lines.len(), 5);
    for (what, text) in cases {
        let mut r = ArmoredReader::new(text.as_bytes());
        let e = r.read_to_end(&mut Vec::new()).expect_err(what);
        let line = e.to_string();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{what}: {line}");
        assert!(line.starts_with("armor: ") && !line.contains('\n'), "{what}: {line}");
        let again = r.read(&mut [0u8; 8]).expect_err("sticky");
        assert_eq!(again.to_string(), line, "{what}");
        for piece in [1, 3, 4096] {
            assert!(dearmor(text.as_bytes(), piece).is_err(), "{what}, pieces of {piece}");
        }
    }
}

#[test]
fn input_errors_pass_through_and_a_partial_writer_never_decodes() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::other("disk on fire"))
        }
    }
    let e = ArmoredReader::new(Failing).read(&mut [0u8; 4]).unwrap_err();
    assert_eq!(e.to_string(), "disk on fire");
    // A writer dropped before `finish` leaves armor without its END line.
    let mut out = Vec::new();
    {
        let mut w = ArmoredWriter::new(&mut out);
        w.write_all(&bytes(1000)).unwrap();
        w.flush().unwrap();
    }
    assert!(!out.is_empty());
    assert!(dearmor(&out, 100).is_err());
}
