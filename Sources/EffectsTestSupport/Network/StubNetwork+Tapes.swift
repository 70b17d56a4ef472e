public import Effects
public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
  ///   let loading = Task { await model.load() }
  ///   await TestScheduler.current.run()  // the recorded latency passes, on virtual time
  ///   await loading.value
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
  /// its latency. The code under test gets the live response, after the same latency on virtual
  /// time; an `await advance` waits for the live network to answer. A request that gets no
  /// response (no connection) throws `live`'s error and is reported. The tape is written once,
  /// when the scope ends (or the network goes), and only if every request got a response and
  /// nothing on it looks like a credential: else the file stays as it was, and the test fails
  /// saying why. What `redacting` names never reaches the file.
  ///
  /// Which of the two happens is `mode`'s choice: by default, record a tape that is missing, play
  /// one that is there, and never record on a CI machine. Commit the tapes with the tests.
  ///
  /// - Parameters:
  ///   - name: The tape's name: the file `__Tapes__/name.json` in the folder of the test's file
  ///     (`"users/42"` for one in a folder inside it; a name that leaves the folder is reported).
  ///   - mode: Whether to play or record (``NetworkTapeMode/automatic`` by default).
  ///   - live: The network to record from, made only when recording.
  ///   - liveTimeout: How long, in real time, a request sent to `live` may go unanswered while
  ///     recording: then it is reported, the code that sent it gets `URLError(.timedOut)`, and
  ///     the scope goes on (30 seconds by default).
  ///   - redacting: What the tape must not keep: by default every credential
  ///     `NetworkTape.Redaction.standard` names.
  ///   - scheduler: The clock latencies run on (the scope's, by default).
  ///   - fileID: The file that made the network: reports are made at this call.
  ///   - filePath: The file's full path: the tape is in `__Tapes__` beside it.
  ///   - line: The line that made the network.
  ///   - column: The column of that call.
  public convenience init(
    tape name: String,
    mode: NetworkTapeMode = .automatic,
    live: @autoclosure () -> any Network = URLSessionNetwork(),
    liveTimeout: Duration = .seconds(30),
    redacting: NetworkTape.Redaction = .standard,
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let path = "\(filePath)"
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
      .appendingPathComponent("__Tapes__", isDirectory: true)
    let file = folder.appendingPathComponent(name.hasSuffix(".json") ? name : "\(name).json")
    if let problem = Self.problem(ofTapeName: name, file: file, folder: folder) {
      let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      self.init(scheduler: scheduler, at: site)
      let shown = name.count > 200 ? "\(name.prefix(199))…" : name
      reportIssue(
        """
        StubNetwork(tape: \(String(reflecting: shown))) names no file in the folder of tapes, \(folder.path): the \
        name \(problem). A tape's name is a file name, or a path inside that folder ("profile", "users/42"). \
        Nothing is recorded or played: requests the code sends are reported as not stubbed. A tape kept \
        elsewhere is StubNetwork(tapeAt:)'s.
        """,
        kind: .tapeUnreadable,
        at: site
      )
      return
    }
    if !path.hasPrefix("/") {
      reportIssue(
        """
        StubNetwork(tape:) cannot tell where the test's file is: its #filePath is "\(path)", not an absolute path \
        (a build that maps source paths?), so the tape would be looked for at \(file.path). Pass the tape's file: \
        StubNetwork(tapeAt: URL(fileURLWithPath: "/…/__Tapes__/\(name).json")).
        """,
        kind: .tapeUnreadable,
        at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
      )
    }
    self.init(
      tapeAt: file,
      mode: mode,
      live: live(),
      liveTimeout: liveTimeout,
      redacting: redacting,
      scheduler: scheduler,
      fileID: fileID,
      filePath: filePath,
      line: line,
      column: column
    )
  }

  /// What is wrong with the tape name `name`, whose file is `file` in the tapes' `folder`: nil
  /// when nothing is.
  static func problem(ofTapeName name: String, file: URL, folder: URL) -> String? {
    if name.isEmpty { return "is empty" }
    if name.contains("\0") { return "holds a NUL character" }
    if name.hasPrefix("/") { return "is an absolute path" }
    if name.hasSuffix("/") || name == ".json" || name.hasSuffix("/.json") { return "names a folder, not a file" }
    if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
      return "climbs out of it with \"..\""
    }
    // A symbolic link inside the folder that leads out of it (the folder itself may be one).
    let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
    var current = root
    let relative = file.path.dropFirst(folder.path.count).split(separator: "/")
    for component in relative {
      let next = "\(current)/\(component)"
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: next) else {
        current = next
        continue
      }
      let target = URL(fileURLWithPath: destination.hasPrefix("/") ? destination : "\(current)/\(destination)")
        .standardizedFileURL.resolvingSymlinksInPath().path
      guard target.hasPrefix(root + "/") else { return "leads out of it through a symbolic link, to \(target)" }
      current = target
    }
    return nil
  }

  /// A network that plays the tape in `file`, or records it there: ``init(tape:mode:live:liveTimeout:redacting:scheduler:fileID:filePath:line:column:)``
  /// with a file of your choosing.
  ///
  /// A tape kept in a target's resources, which its previews play as well, is found at its
  /// source: given the copy the build made (`Bundle.module.url(forResource:withExtension:)`), the
  /// network plays and records the one file of the package with the same path in its folder of
  /// resources (`Sources/Profile/Tapes/users-42.json`), and its reports name that file.
  ///
  /// ```swift
  /// let network = StubNetwork(tapeAt: ProfilePreview.tape)  // recorded in Sources/Profile/Tapes
  /// ```
  public convenience init(
    tapeAt file: URL,
    mode: NetworkTapeMode = .automatic,
    live: @autoclosure () -> any Network = URLSessionNetwork(),
    liveTimeout: Duration = .seconds(30),
    redacting: NetworkTape.Redaction = .standard,
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    self.init(scheduler: scheduler, at: site)
    // A tape in a target's resources is recorded and played at its source, not the build's copy.
    let file = TapeSource.of(file, testFile: "\(filePath)") ?? file
    state.withLock {
      $0.tapeFile = file
      $0.tapeMode = mode
    }
    switch TapeChoice(mode: mode, file: file) {
    case .record:
      startRecording(to: file, from: live(), timeout: liveTimeout, redacting: redacting, at: site)
    case .play:
      do {
        play(try NetworkTape(contentsOf: file), from: file, at: site)
      } catch {
        reportIssue(Self.unplayable(error, mode: mode), kind: .tapeUnreadable, at: site)
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
    state.withLock { $0.recorder != nil ? $0.recorded : $0.tape }
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
    switch mode {
    case .play:
      return """
        StubNetwork(tape:) has no tape to play: \(error) It plays tapes only (mode: .play), and never records one: \
        record it once with mode: .record where the server can be reached, then commit the file. Requests the code \
        sends meanwhile are reported as not stubbed.
        """
    case .automatic, .record:
      return """
        StubNetwork(tape:) has no tape to play: \(error) A CI machine never records one (the CI environment variable \
        is set). Record it where the server can be reached: run the test once outside CI (a missing tape is \
        recorded), or with EFFECTS_TAPES=record to record every tape again, then commit the file. Requests the code \
        sends meanwhile are reported as not stubbed.
        """
    }
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
  /// How long a live request may go unanswered, in real time.
  let timeout: Duration
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
  private func startRecording(
    to file: URL,
    from live: any Network,
    timeout: Duration,
    redacting: NetworkTape.Redaction,
    at site: CallSite
  ) {
    var recorder = TapeRecorder(file: file, live: live, timeout: timeout, redaction: redacting, site: site)
    recorder.holdsClaim = TapeRecorder.start(file)
    state.withLock { $0.recorder = recorder }
    // The recording ends, and its claim with it, with the scope the tape is recorded in (an
    // XCTest case keeps its network), or else when the network goes.
    if let scope = TestScheduler.scoped ?? state.withLock({ $0.scheduler }).flatMap({ $0.hasOpenScope ? $0 : nil }) {
      scope.atScopeEnd { [weak self] in
        self?.finishRecording()
        self?.releaseTapeClaim()
      }
    }
    if !recorder.holdsClaim {
      reportIssue(
        """
        StubNetwork(tape:) records the tape at \(file.path), which another StubNetwork of this process is \
        recording too (a test of the same name running in parallel, or two networks in one test): the two would \
        overwrite each other. Give each test a tape of its own: StubNetwork(tape: "…") with a name of its own.
        """,
        kind: .tapeNotRecorded,
        at: site
      )
    }
    do {
      try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      state.withLock { $0.recordingFailed = true }
      let failure = NetworkTapeError(file: file, problem: .unwritable("\(error)"))
      reportIssue(
        "StubNetwork(tape:) cannot record: \(failure) What it records is lost.",
        kind: .tapeNotRecorded,
        at: site
      )
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

  /// Sends `request` to the live network and records the exchange on the tape, then answers the
  /// live response after its latency on virtual time, as playing the tape will. The tape is
  /// written when the recording ends (``finishRecording()``).
  func record(
    _ request: NetworkRequest,
    through recorder: TapeRecorder,
    scheduler: TestScheduler?
  ) async throws -> NetworkResponse {
    guard !state.withLock({ $0.recordingEnded }) else {
      reportIssue(
        """
        StubNetwork(tape:) got \(Self.line(shown(request))) after its recording ended (its scope's end): it is not \
        on the tape at \(recorder.file.path), and the code that sent it got StubNetworkError. A request sent after \
        the test is done comes from a task the test did not wait for.
        """,
        kind: .tapeNotRecorded,
        at: recorder.site
      )
      throw StubNetworkError(request: shown(request))
    }
    let live = recorder.live
    let urlRequest = request.urlRequest
    let timeout = recorder.timeout
    let started = ContinuousClock.now
    let response: NetworkResponse
    // Named as the tape would hold it: a report never shows what the tape must not.
    let shown = recorder.redaction.apply(to: NetworkTape.Exchange(request: request, response: .ok())).request
    do {
      if #available(EffectsVirtualTime , *) {
        response = try await VirtualExecutor.outside {
          try await Self.answer(to: urlRequest, from: live, within: timeout)
        }
      } else {
        response = try await Self.answer(to: urlRequest, from: live, within: timeout)
      }
    } catch is CancellationError where Task.isCancelled {
      // The code under test gave up on the request (a search typed over): not on the tape.
      throw CancellationError()
    } catch is LiveTimeout {
      state.withLock { $0.unanswered.append(shown) }
      reportIssue(
        """
        StubNetwork(tape:) is recording the tape at \(recorder.file.path), and the live network gave no answer to \
        \(Self.line(shown)) within \(timeout.literal) (real time). The request is not on the tape, the code that \
        sent it got URLError(.timedOut), and the scope goes on. For a slower server, pass a longer \
        StubNetwork(tape:liveTimeout:).
        """,
        kind: .tapeNotRecorded,
        at: recorder.site
      )
      throw URLError(.timedOut)
    } catch {
      state.withLock { $0.unanswered.append(shown) }
      reportIssue(
        """
        StubNetwork(tape:) is recording the tape at \(recorder.file.path), and the live network gave no response \
        to \(Self.line(shown)): \(NetworkTape.quoted("\(error)")). The request is not on the tape, and \
        the code that sent it got the error. Record where the server can be reached.
        """,
        kind: .tapeNotRecorded,
        at: recorder.site
      )
      throw error
    }
    let latency = ContinuousClock.now - started
    let exchange = recorder.redaction.apply(
      to: NetworkTape.Exchange(request: request, response: response, latency: latency)
    )
    state.withLock { $0.recorded.exchanges.append(exchange) }
    if let scheduler, exchange.latency > .zero {
      try await scheduler.sleep(for: exchange.latency, at: recorder.site)
    }
    return response
  }

  /// What `live` answers `request`, or ``LiveTimeout`` once `timeout` has passed in real time
  /// without an answer: the request is then cancelled and left behind, so that a live network that
  /// never answers, and ignores cancellation, cannot hold the test.
  private static func answer(
    to request: URLRequest,
    from live: any Network,
    within timeout: Duration
  ) async throws -> NetworkResponse {
    let sending = Locked<(task: Task<Void, Never>?, answer: (@Sendable (Result<NetworkResponse, any Error>) -> Void)?)>(
      (nil, nil)
    )
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<NetworkResponse, any Error>) in
        let answered = Locked(false)
        let answer: @Sendable (Result<NetworkResponse, any Error>) -> Void = { result in
          let first = answered.withLock { answered in
            defer { answered = true }
            return !answered
          }
          if first { continuation.resume(with: result) }
        }
        sending.withLock { $0.answer = answer }
        let task = Task.detached {
          do {
            answer(.success(try await live.send(request)))
          } catch {
            answer(.failure(error))
          }
        }
        let cancelled = sending.withLock { state in
          state.task = task
          return state.answer == nil
        }
        if cancelled { task.cancel() }
        let nanoseconds = max(0, timeout / .nanoseconds(1))
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(min(nanoseconds, Double(Int.max / 2))))) {
          answer(.failure(LiveTimeout()))
          task.cancel()
        }
      }
    } onCancel: {
      // Cancelled, the caller goes on at once, whether or not the live network heeds it.
      let (task, answer) = sending.withLock { state in
        defer { state.answer = nil }
        return (state.task, state.answer)
      }
      task?.cancel()
      answer?(.failure(CancellationError()))
    }
  }

  /// Ends the recording: writes the tape, once, if it ended cleanly — every request sent to the
  /// live network got a response, and nothing on the tape looks like a credential — and holds an
  /// exchange; else leaves the file as it was, and says why. A tape that replaces one names the
  /// exchanges of the old one that are not on the new one.
  func finishRecording() {
    let ended = state.withLock { state -> (TapeRecorder, NetworkTape, [NetworkRequest])? in
      guard let recorder = state.recorder, !state.recordingEnded else { return nil }
      state.recordingEnded = true
      return state.recordingFailed ? nil : (recorder, state.recorded, state.unanswered)
    }
    guard let (recorder, tape, unanswered) = ended, !tape.exchanges.isEmpty else { return }
    let file = recorder.file
    if !unanswered.isEmpty {
      let total = unanswered.count + tape.exchanges.count
      reportIssue(
        """
        StubNetwork(tape:) did not write the tape at \(file.path): \(unanswered.count) of the \(total) requests sent \
        to the live network got no response (\(Self.list(unanswered.map(Self.line)))), so the recording did not \
        end cleanly, and the file is as it was. Record again where the server can be reached.
        """,
        kind: .tapeNotRecorded,
        at: recorder.site
      )
      return
    }
    let secrets = tape.secrets(keeping: recorder.redaction)
    if !secrets.isEmpty {
      reportIssue(Self.secretsMessage(secrets, in: tape, file: file), kind: .secretInTape, at: recorder.site)
      return
    }
    let replaced = try? NetworkTape(contentsOf: file)
    do throws(NetworkTapeError) {
      try tape.write(to: file)
    } catch {
      reportIssue(
        "StubNetwork(tape:) cannot record: \(error) What it records is lost.",
        kind: .tapeNotRecorded,
        at: recorder.site
      )
      return
    }
    guard let replaced else {
      warn("recorded the network tape \(file.path): commit it with the test")
      return
    }
    let gone = Self.exchanges(of: replaced, notOn: tape)
    if !gone.isEmpty {
      warn(
        """
        recorded the network tape \(file.path) again: \(gone.count) of the \(replaced.exchanges.count) exchanges of \
        the tape it replaced are not on it (\(Self.list(gone.map { Self.line($0.request) }))); review the \
        change before you commit it
        """
      )
    }
  }

  /// The exchanges of `old` that no exchange of `new` stands for (the same request, each used
  /// once), in order.
  private static func exchanges(of old: NetworkTape, notOn new: NetworkTape) -> [NetworkTape.Exchange] {
    var unused: [NetworkRequest: Int] = [:]
    for exchange in new.exchanges { unused[exchange.request, default: 0] += 1 }
    return old.exchanges.filter { exchange in
      guard let count = unused[exchange.request], count > 0 else { return true }
      unused[exchange.request] = count - 1
      return false
    }
  }

  /// `GET https://…`, at most 200 characters, what looks like a credential cut to its mark.
  private static func line(_ request: NetworkRequest) -> String {
    NetworkTape.quoted("\(request.method.prefix(20)) \(request.url.absoluteString)")
  }

  /// The first five of `items`, joined, and how many more.
  private static func list(_ items: [String]) -> String {
    let shown = items.prefix(5).joined(separator: ", ")
    return items.count > 5 ? "\(shown), and \(items.count - 5) more" : shown
  }

  /// Why a tape with `secrets` was not written: each (the first five), where it is, and how to
  /// redact or keep it.
  static func secretsMessage(_ secrets: [NetworkTape.Secret], in tape: NetworkTape, file: URL) -> String {
    let shown = secrets.prefix(5).map { secret in
      """
      - exchange \(secret.exchange + 1) of \(tape.exchanges.count), \(NetworkTape.quoted(secret.path)): \
      \(secret.kind), \(secret.length) characters. \(secret.remedy)
      """
    }
    let more = secrets.count > 5 ? "\n- and \(secrets.count - 5) more" : ""
    return """
      StubNetwork(tape:) did not write the tape at \(file.path): it holds what looks like a credential, which a \
      tape committed to git must not (the file is as it was):
      \(shown.joined(separator: "\n"))\(more)
      """
  }
}

/// A live request that got no answer in time.
struct LiveTimeout: Error {}
