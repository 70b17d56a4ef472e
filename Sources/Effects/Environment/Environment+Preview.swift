public import Foundation

extension Environment {
  /// The world a SwiftUI preview or a demo build runs in: realistic, never live, and the same on
  /// every run.
  ///
  /// - `network`: answers from `tape` — requests it recorded, or exchanges written by hand — at
  ///   once (time stands still in a preview), and fails any other request as offline,
  ///   `URLError(.notConnectedToInternet)`;
  /// - `clock`: stopped at `now`; `continuousClock`: a clock whose sleeps end at once; `scheduler`:
  ///   an ``InlineScheduler``, which runs work at once;
  /// - `fileReader` and `fileWriter`: one empty ``InMemoryFileSystem``; `defaults`: an empty
  ///   ``InMemoryDefaults``; `bundle`: no resources (set `Bundle.main` to show the app's);
  /// - `uuid`: ``IncrementingUUIDs`` (`UUID(0)`, `UUID(1)`, …); `random`: `RandomSource(seed: 0)`;
  /// - `console` and `events`: in memory; `calendar`: gregorian, in `timeZone` UTC and `locale`
  ///   `en_US_POSIX`;
  /// - an app's keys: their `testValue`, else their `liveValue`.
  ///
  /// Unlike `Environment.test()`, it never reports a read as a failure: there is no test to fail.
  ///
  /// ```swift
  /// #Preview {
  ///   let tape = try! NetworkTape(contentsOf: Bundle.main.url(forResource: "profile", withExtension: "json")!)
  ///   ProfileView(model: ProfileModel(environment: .preview(network: tape)))
  /// }
  /// ```
  ///
  /// Change what a preview needs on a copy: `var environment = Environment.preview(); environment.defaults = …`.
  ///
  /// - Parameters:
  ///   - tape: What the network answers; by default nothing, so every request fails as offline.
  ///   - now: What the clock tells.
  public static func preview(
    network tape: NetworkTape = NetworkTape(),
    now: Date = Date(timeIntervalSinceReferenceDate: 0)
  ) -> Environment {
    var environment = Environment(
      testing: TestContext(callSite: nil, origin: "Environment.preview()", reads: .preview, report: { _, _ in })
    )
    environment.clock = FixedClock(now)
    environment.useFileSystem(InMemoryFileSystem())
    environment.network = TapeNetwork(tape)
    return environment
  }
}
