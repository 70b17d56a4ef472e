/// The problems one report lists, within ``OutputBudget/problems``: the first ones in full, the
/// rest counted. A problem past the budget is never spelled out, so a diagram of a million `]` costs
/// a count, not a million sentences.
struct ProblemList {
  private(set) var shown: [String] = []
  /// The problems found past the budget, counted only.
  private(set) var more = 0

  var isEmpty: Bool { shown.isEmpty }

  /// Adds a problem, spelled only while the budget lasts.
  mutating func append(_ problem: @autoclosure () -> String) {
    if shown.count < OutputBudget.problems {
      shown.append(problem())
    } else {
      more += 1
    }
  }

  /// `first; second; … and 999990 more problems`.
  var joined: String {
    let listed = shown.joined(separator: "; ")
    return more == 0 ? listed : "\(listed); … and \(more) more \(more == 1 ? "problem" : "problems")"
  }
}
