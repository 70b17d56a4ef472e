public import Effects
public import Foundation

/// Whether `StubNetwork(tape:)` plays its tape or records it.
public enum NetworkTapeMode: Hashable, Sendable {
  /// Plays the tape, and records it when there is none yet — but never on a CI machine (the `CI`
  /// environment variable set), where a missing tape is a failure that says how to record it.
  /// With the environment variable `EFFECTS_TAPES=record`, records every tape again.
  case automatic
  /// Records the tape again from the live network, replacing it, wherever the test runs.
  case record
  /// Plays the tape and never records it: a missing tape is a failure.
  case play
}

extension StubNetwork {
  /// A network that plays the tape `name`, kept beside the test in `__Tapes__/name.json`, or
  /// records it from the live network when there is none yet.
  ///
  /// ```swift
  /// @Test(.virtualTime) func loadsTheProfile() async throws {
  ///   var environment = Environment.current
  ///   environment.network = StubNetwork(tape: "profile")
  ///
  ///   let model = ProfileModel(environment: environment)
  ///   await model.load()
  ///   await TestScheduler.current.run()
  ///
  ///   #expect(model.profile?.name == "Ada")
  /// }
  /// ```
  ///
  /// **Playing**, every exchange of the tape is a stub (see ``play(_:fileID:filePath:line:column:)``):
  /// a recorded request is answered with its response after its recorded latency on virtual time,
  /// a request the tape does not hold is reported with the closest exchange and a diff, and an
  /// exchange nothing asked for is reported when the scope ends.
  ///
  /// **Recording**, each request no stub matches is sent to `live` and its response recorded, with
  /// its latency; the tape is written after every exchange (a failed write is reported, naming
  /// the file). The code under test gets the live response, after the same latency on virtual
  /// time; an `await advance` waits for the live network to answer. What `redacting` names never
  /// reaches the file. A request that gets no response (no connection) throws `live`'s error and
  /// is not recorded.
  ///
  /// Which of the two happens is `mode`'s choice: by default, record a tape that is missing, play
  /// one that is there, and never record on a CI machine. Commit the tapes with the tests.
  ///
  /// - Parameters:
  ///   - name: The tape's name: the file `__Tapes__/name.json` in the folder of the test's file.
  ///   - mode: Whether to play or record (``NetworkTapeMode/automatic`` by default).
  ///   - live: The network to record from, made only when recording.
  ///   - redacting: What the tape must not keep: by default the `Authorization`, `Cookie` and
  ///     `Set-Cookie` header fields.
  ///   - scheduler: The clock latencies run on (the scope's, by default).
  ///   - fileID: The file that made the network: reports are made at this call.
  ///   - filePath: The file's full path: the tape is in `__Tapes__` beside it.
  ///   - line: The line that made the network.
  ///   - column: The column of that call.
  public convenience init(
    tape name: String,
    mode: NetworkTapeMode = .automatic,
    live: @autoclosure () -> any Network = URLSessionNetwork(),
    redacting: NetworkTape.Redaction = .standard,
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let path = "\(filePath)"
    let file = URL(fileURLWithPath: path).deletingLastPathComponent()
      .appendingPathComponent("__Tapes__", isDirectory: true)
      .appendingPathComponent(name.hasSuffix(".json") ? name : "\(name).json")
    if !path.hasPrefix("/") {
      reportIssue(
        """
        StubNetwork(tape:) cannot tell where the test's file is: its #filePath is "\(path)", not an absolute path \
        (a build that maps source paths?), so the tape would be looked for at \(file.path). Pass the tape's file: \
        StubNetwork(tapeAt: URL(fileURLWithPath: "/…/__Tapes__/\(name).json")).
        """,
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    }
    self.init(
      tapeAt: file,
      mode: mode,
      live: live(),
      redacting: redacting,
      scheduler: scheduler,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// A network that plays the tape in `file`, or records it there: ``init(tape:mode:live:redacting:scheduler:fileID:filePath:line:column:)``
  /// with a file of your choosing (a resource of the app that its previews play as well).
  public convenience init(
    tapeAt file: URL,
    mode: NetworkTapeMode = .automatic,
    live: @autoclosure () -> any Network = URLSessionNetwork(),
    redacting: NetworkTape.Redaction = .standard,
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(scheduler: scheduler, at: site)
    state.withLock { $0.tapeFile = file }
    switch TapeChoice(mode: mode, file: file) {
    case .record:
      startRecording(to: file, from: live(), redacting: redacting, at: site)
    case .play:
      do {
        play(try NetworkTape(contentsOf: file), from: file, at: site)
      } catch {
        reportIssue(Self.unplayable(error, mode: mode), at: site)
      }
    }
  }

  /// Answers the exchanges of `tape` as stubs: each recorded request with its response, after its
  /// recorded latency on virtual time, by the rules of ``stub(_:_:after:fileID:filePath:line:column:)``
  /// — a JSON body compared as JSON, and a value the tape redacted matching any value. An exchange
  /// nothing asked for is reported at this call when the scope ends.
  ///
  /// ```swift
  /// network.play(try NetworkTape(contentsOf: tapeURL))
  /// ```
  public func play(
    _ tape: NetworkTape,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    play(tape, from: nil, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The tape this network plays, or the one it has recorded so far; nil when it has none.
  ///
  /// ```swift
  /// let latency = network.tape?.exchanges[0].latency ?? .zero  // when the first response arrives
  /// ```
  public var tape: NetworkTape? {
    state.withLock { $0.tape }
  }

  private func play(_ tape: NetworkTape, from file: URL?, at site: CallSite) {
    state.withLock { $0.tape = tape }
    let name = file.map { "the tape at \($0.path)" } ?? "the tape"
    for (index, exchange) in tape.exchanges.enumerated() {
      add(
        exchange.request,
        .response(exchange.response),
        exchange.latency,
        site,
        tape: (exchange, "exchange \(index + 1) of \(tape.exchanges.count) of \(name)")
      )
    }
  }

  /// Why the tape cannot be played, and how to record it.
  private static func unplayable(_ error: NetworkTapeError, mode: NetworkTapeMode) -> String {
    guard error.problem == .missing else { return "StubNetwork(tape:) cannot play its tape. \(error)" }
    let reason =
      switch mode {
      case .play: "It plays tapes only (mode: .play)."
      case .automatic, .record: "A CI machine never records one (the CI environment variable is set)."
      }
    return """
      StubNetwork(tape:) has no tape to play: \(error) \(reason) Record it where the server can be reached: run the \
      test once outside CI (a missing tape is recorded), or with EFFECTS_TAPES=record to record every tape again, \
      then commit the file. Requests the code sends meanwhile are reported as not stubbed.
      """
  }
}

/// Whether a tape is recorded or played, from the mode and the process's environment variables.
enum TapeChoice: Equatable {
  case record
  case play

  init(mode: NetworkTapeMode, file: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
    switch mode {
    case .record:
      self = .record
    case .play:
      self = .play
    case .automatic:
      let onCI = environment["CI"].map { !["", "0", "false", "no"].contains($0.lowercased()) } ?? false
      if onCI {
        self = .play
      } else if environment["EFFECTS_TAPES"]?.lowercased() == "record" {
        self = .record
      } else {
        self = FileManager.default.fileExists(atPath: file.path) ? .play : .record
      }
    }
  }
}

/// What a network that records a tape sends its unstubbed requests to, and the tape so far.
struct TapeRecorder: Sendable {
  let file: URL
  let live: any Network
  let redaction: NetworkTape.Redaction
  let site: CallSite
  /// Whether this recording holds its file (see ``start(_:)``), until its scope ends or its
  /// network goes.
  var holdsClaim = false

  /// The tapes being recorded in this process, by path: two networks recording one file (two
  /// tests of one name running in parallel) would overwrite each other.
  private static let recording = Locked<Set<String>>([])

  /// Claims `file` for a recording; false when another network records it already.
  static func start(_ file: URL) -> Bool {
    recording.withLock { $0.insert(file.standardizedFileURL.path).inserted }
  }

  /// Gives `file` back when its network goes.
  static func finish(_ file: URL) {
    _ = recording.withLock { $0.remove(file.standardizedFileURL.path) }
  }
}

extension StubNetwork {
  /// Records from now on: the tape starts empty, and is written with its first exchange — a
  /// tape that is there stays as it is until then, so a run that gets no response leaves it. Its
  /// folder is made at once, so that one that cannot be is reported at the line that asked.
  private func startRecording(to file: URL, from live: any Network, redacting: NetworkTape.Redaction, at site: CallSite)
  {
    var recorder = TapeRecorder(file: file, live: live, redaction: redacting, site: site)
    recorder.holdsClaim = TapeRecorder.start(file)
    state.withLock {
      $0.recorder = recorder
      $0.tape = NetworkTape()
    }
    // The claim ends with the scope the tape is recorded in (an XCTest case keeps its network).
    if let scope = TestScheduler.scoped ?? state.withLock({ $0.scheduler }).flatMap({ $0.hasOpenScope ? $0 : nil }) {
      scope.atScopeEnd { [weak self] in self?.releaseTapeClaim() }
    }
    if !recorder.holdsClaim {
      reportIssue(
        """
        StubNetwork(tape:) records the tape at \(file.path), which another StubNetwork of this process is \
        recording too (a test of the same name running in parallel, or two networks in one test): the two would \
        overwrite each other. Give each test a tape of its own: StubNetwork(tape: "…") with a name of its own.
        """,
        at: site
      )
    }
    do {
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      state.withLock { $0.recordingFailed = true }
      let failure = NetworkTapeError(file: file, problem: .unwritable("\(error)"))
      reportIssue("StubNetwork(tape:) cannot record: \(failure) What it records is lost.", at: site)
    }
  }

  /// Gives back the file this network records, if it holds it.
  func releaseTapeClaim() {
    let file = state.withLock { state -> URL? in
      guard let recorder = state.recorder, recorder.holdsClaim else { return nil }
      state.recorder?.holdsClaim = false
      return recorder.file
    }
    if let file { TapeRecorder.finish(file) }
  }

  /// Sends `request` to the live network, records the exchange on the tape and writes the tape,
  /// then answers the live response after its latency on virtual time, as playing the tape will.
  func record(
    _ request: NetworkRequest,
    through recorder: TapeRecorder,
    scheduler: TestScheduler?
  ) async throws -> NetworkResponse {
    let live = recorder.live
    let urlRequest = request.urlRequest
    let started = ContinuousClock.now
    let response: NetworkResponse
    do {
      if #available(EffectsVirtualTime , *) {
        response = try await VirtualExecutor.outside { try await live.send(urlRequest) }
      } else {
        response = try await live.send(urlRequest)
      }
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      reportIssue(
        """
        StubNetwork(tape:) is recording the tape at \(recorder.file.path), and the live network gave no response \
        to \(request): \(error). The request is not on the tape, and the code that sent it got the error. Record \
        where the server can be reached.
        """,
        at: recorder.site
      )
      throw error
    }
    let latency = ContinuousClock.now - started
    let exchange = recorder.redaction.apply(
      to: NetworkTape.Exchange(request: request, response: response, latency: latency)
    )
    append(exchange, to: recorder)
    if let scheduler, exchange.latency > .zero {
      try await scheduler.sleep(for: exchange.latency, at: recorder.site)
    }
    return response
  }

  /// Adds `exchange` (if any) to the tape being recorded and writes the tape, under the lock so
  /// that two exchanges recorded at once are written in turn; a failure is reported once, at the
  /// line that asked for the tape.
  private func append(_ exchange: NetworkTape.Exchange, to recorder: TapeRecorder) {
    let (failure, first): (NetworkTapeError?, Bool) = state.withLock { state in
      state.recorded.exchanges.append(exchange)
      state.tape = state.recorded
      do throws(NetworkTapeError) {
        try state.recorded.write(to: recorder.file)
        return (nil, state.recorded.exchanges.count == 1)
      } catch {
        defer { state.recordingFailed = true }
        return (state.recordingFailed ? nil : error, false)
      }
    }
    if let failure {
      reportIssue("StubNetwork(tape:) cannot record: \(failure) What it records is lost.", at: recorder.site)
    } else if first {
      warn("recording the network tape \(recorder.file.path): commit it with the test")
    }
  }
}
