public import Effects
import Foundation

/// Reads a number from a bundled file, squares it, and says so: the talk's `compute(file:)`,
/// with both of its hidden sides made explicit.
///
/// - Co-effects: the bundle and the file reader come from `environment`.
/// - Effects: the message is returned as `.print`, not printed.
///
/// ```swift
/// let outcome = try compute(file: "number.txt")
/// // outcome == Outcome(value: 15129, effects: [.print("Computed: 15129")])
/// ```
///
/// Where the talk coalesced every failure to 0, this version says what went wrong.
///
/// - Throws: ``ComputeError`` naming the resource or the path.
public func compute(file: String, environment: Environment = .current) throws(ComputeError) -> Outcome<Int, Effect> {
  guard let path = environment.bundle.path(forResource: file, ofType: nil) else {
    throw .resourceNotFound(file)
  }
  let contents: String
  do {
    contents = try environment.fileReader.string(atPath: path)
  } catch {
    throw .unreadable(path: path, reason: error.localizedDescription)
  }
  let trimmed = contents.trimmingCharacters(in: .whitespacesAndNewlines)
  guard let value = Int(trimmed) else {
    throw .notAnInteger(path: path, contents: trimmed)
  }
  let (result, overflow) = value.multipliedReportingOverflow(by: value)
  guard !overflow else { throw .tooLarge(path: path, value: value) }
  return Outcome(value: result, effects: [.print("Computed: \(result)")])
}
