/// How much of a failure a message shows: enough to see what went wrong, never so much that a spy
/// called 100,000 times or a 50 MB request body is printed whole. Every cut says what it left out,
/// on a line of its own (`… and 9980 more differences`, `… 99980 more`) or after the text it cut
/// (`… (52428800 bytes, the first 1024 shown)`).
///
/// Over every part, a whole report is within `ReportBudget` (in `Effects`): at most 20,000
/// characters, each quoted value at most 300.
///
/// Messages of the sizes tests usually see are not cut: a list diff of up to 50 entries with up to
/// 20 differences, a list of up to 20 entries, an entry of up to 2,000 characters, a body of up to
/// 1 KiB.
enum OutputBudget {
  /// The differences a list diff shows: 20. A changed entry counts as one, and so does a missing or
  /// an unexpected one; the rest are counted on one line (`… and 9980 more differences`).
  static let differences = 20

  /// The entries of a list diff shown whole, every one in both lists, as long as it has at most
  /// ``differences`` differences: 50. A longer diff shows its first ``differences`` differences,
  /// each with ``context`` equal entries on either side, and counts each run of equal entries it
  /// hides on one line (`… 24998 equal entries`).
  static let wholeDiff = 50

  /// The equal entries a cut list diff shows on either side of a difference: 2.
  static let context = 2

  /// The insertions and removals the list diff looks for: 200 (a changed entry is one of each).
  /// Finding them costs time in proportion to the length of the two lists times this budget, after
  /// their common start; past it, the diff shows the first differences of the lists' start and
  /// says that the rest was not compared.
  static let edits = 200

  /// The changed lines a line diff (of two states, of two requests) shows: 20; the rest are
  /// counted on one line (`… and 12 more changed lines`).
  static let changedLines = 20

  /// The entries a list shows: 20, the first 10 and the last 10, with a line between them that
  /// counts the rest (`… 99980 more`).
  static let listEntries = 20

  /// The characters of one entry, one line of a message: 2,000; a longer one is cut, with its
  /// length (`… (50000000 characters, the first 2000 shown)`).
  static let entryCharacters = 2000

  /// The bytes of a request or response body shown: 1,024 (1 KiB); a longer body is shown by its
  /// first 1,024 bytes and its size (`"{\"items\":[1,2,…"… (52428800 bytes, the first 1024 shown)`).
  static let bodyBytes = 1024

  /// The problems a report about one input spells out: 10 (a diagram it cannot read, a timeline
  /// it cannot play); the rest are counted (`… and 999990 more problems`). See ``ProblemList``.
  static let problems = 10
}
