/// The one budget of every text this library prints: a test failure, a known issue, a line on
/// standard error. Whatever a report quotes (a 2 MB URL, a diagram of a million characters, a list
/// of 100,000 problems), it reaches the user in at most ``characters`` characters, and says how
/// many it left out.
///
/// Each kind of report cuts its own parts first, where it knows what they are (a body by its first
/// KiB, a list by its first and last entries, a quoted value by its first 300 characters: see test
/// support's `OutputBudget`). This budget is the last word, over the whole text, for what no part's
/// cut foresaw.
package enum ReportBudget {
  /// The characters a report shows at most: 20,000 (about 250 lines of 80). A longer one keeps its
  /// first ``head`` characters and its last ``tail`` (where a report says what to do), with a line
  /// between them counting the rest.
  ///
  /// Characters are counted as Unicode scalars, not as what Swift calls a `Character` (a grapheme
  /// cluster): one "character" of a million combining marks is a million here, so no text passes
  /// the budget by being one grapheme. A report is then at most 80,000 bytes of UTF-8.
  package static let characters = 20_000

  /// The characters kept from the start of a report that is cut: 16,000.
  package static let head = 16_000

  /// The characters kept from the end of a report that is cut: 2,000.
  package static let tail = 2_000

  /// The characters of one value a report quotes (a method, a URL, a header, a diagram, an error's
  /// description): 300; a longer one is cut there, with its length.
  package static let valueCharacters = 300

  /// The headers of a request or a response a report lists: 20, sorted by name; the rest are
  /// counted.
  package static let headers = 20

  /// `report`, or, when it is longer than ``characters``, its start and its end around a line that
  /// counts what was cut: `… (1,234,567 characters cut: a report shows at most 20,000) …`.
  package static func bounded(_ report: String) -> String {
    // A scalar is at least one byte: a report of few bytes is not counted.
    guard report.utf8.count > characters else { return report }
    let scalars = report.unicodeScalars
    let count = scalars.count
    guard count > characters else { return report }
    let cut = count - head - tail
    return """
      \(String(String.UnicodeScalarView(scalars.prefix(head))))
      … (\(cut) characters cut: a report shows at most \(characters)) …
      \(String(String.UnicodeScalarView(scalars.suffix(tail))))
      """
  }

  /// The first `limit` Unicode scalars of `value`, and how many it has; nil when it has no more
  /// than `limit`.
  package static func prefix(_ value: String, scalars limit: Int) -> (prefix: String, count: Int)? {
    guard value.utf8.count > limit else { return nil }
    let scalars = value.unicodeScalars
    let count = scalars.count
    guard count > limit else { return nil }
    return (String(String.UnicodeScalarView(scalars.prefix(limit))), count)
  }

  /// `value`, or its first ``valueCharacters`` characters, an ellipsis and its length:
  /// `https://example.com/aaaa…(2000000 characters)`.
  package static func clipped(_ value: String) -> String {
    guard let (prefix, count) = prefix(value, scalars: valueCharacters) else { return value }
    return "\(prefix)… (\(count) characters)"
  }

  /// `value` in quotes, or its first ``valueCharacters`` characters in quotes and its length:
  /// `"a-b-c"`, `"a-b-c-…" (1000000 characters)`.
  package static func quoted(_ value: String) -> String {
    guard let (prefix, count) = prefix(value, scalars: valueCharacters) else { return "\"\(value)\"" }
    return "\"\(prefix)…\" (\(count) characters)"
  }
}
