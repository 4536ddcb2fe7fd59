//! A line longer than the server reads as one message: skipped to its end unread, and the id
//! of its request read from its start, for the Parse error that answers it.

use std::io::BufRead;

use serde_json::Value;

/// A line longer than this is refused without being held: 16 MiB is far beyond any message
/// of these tools.
pub(super) const MAX_LINE: u64 = 16 << 20;

/// Reads past the rest of a line.
pub(super) fn skip(input: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        if let Some(end) = memchr::memchr(b'\n', buffer) {
            input.consume(end + 1);
            return Ok(());
        }
        let all = buffer.len();
        input.consume(all);
    }
}

/// The id of a request whose line is cut short, when its start says it: the members of the
/// top-level object are read in order until `id` (a string or a number), and the reading
/// stops at the first member that cannot be read whole (the cut), giving `null` as JSON-RPC
/// says for an id that cannot be known.
pub(super) fn id_at_start(line: &[u8]) -> Value {
    let mut rest = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let token = |rest: &mut &[u8], byte: u8| {
        let trimmed = rest.trim_ascii_start();
        let found = trimmed.first() == Some(&byte);
        if found {
            *rest = &trimmed[1..];
        }
        found
    };
    if !token(&mut rest, b'{') {
        return Value::Null;
    }
    loop {
        let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<String>();
        let Some(Ok(key)) = values.next() else {
            return Value::Null;
        };
        rest = &rest[values.byte_offset()..];
        if !token(&mut rest, b':') {
            return Value::Null;
        }
        if key == "id" {
            let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<Value>();
            return match values.next() {
                Some(Ok(id)) if id.is_string() || id.is_number() => id,
                _ => Value::Null,
            };
        }
        let mut values =
            serde_json::Deserializer::from_slice(rest).into_iter::<serde::de::IgnoredAny>();
        let Some(Ok(_)) = values.next() else {
            return Value::Null;
        };
        rest = &rest[values.byte_offset()..];
        if !token(&mut rest, b',') {
            return Value::Null;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_of_a_cut_line_is_read_from_its_start() {
        let cut = |head: &str| id_at_start(format!("{head}{}", "x".repeat(64)).as_bytes());
        assert_eq!(cut(r#"{"jsonrpc": "2.0", "id": 7, "params": {"a": ""#), 7);
        assert_eq!(
            cut(r#"{"id":"r-1","method":"tools/call","params":{"s":""#),
            "r-1"
        );
        assert_eq!(
            cut(r#"{"jsonrpc":"2.0","method":"tools/call","params":{"n":[1,2],"s":""#),
            Value::Null
        );
        // The id after the cut cannot be known, nor one of a type JSON-RPC does not allow.
        assert_eq!(cut(r#"{"params": {"s": ""#), Value::Null);
        assert_eq!(cut(r#"{"id": [1], "params": ""#), Value::Null);
        assert_eq!(cut("[{\"id\": 1"), Value::Null);
        // Members before the id are read past whole, strings with escapes included.
        assert_eq!(
            cut(r#"{"method": "a\"b{", "meta": {"x": [1, {}]}, "id": 9, "p": ""#),
            9
        );
    }
}
