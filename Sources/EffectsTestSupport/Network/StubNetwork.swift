public import Effects

#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A `Network` for tests: it answers requests from stubs, records every request, and
/// reports what the test did not foresee — a request no stub matches, a stub nothing asked for.
///
/// Give it to the code under test through the environment, stub what the server should answer,
/// then assert the requests:
///
/// ```swift
/// @Test(.virtualTime) func loadsTheProfile() async throws {
///   let network = StubNetwork()
///   network.stub(.get("https://api.example.com/profiles/42"), .json(#"{"name":"Ada"}"#))
///   var environment = Environment.current
///   environment.network = network
///
///   let profile = try await ProfileService(environment: environment).profile(id: 42)
///
///   #expect(profile.name == "Ada")
///   network.assertRequests([.get("https://api.example.com/profiles/42")])
/// }
/// ```
///
/// What it guarantees:
/// - **A stub matches** a request with the same method, URL and body that carries every header
///   the stub names (a stub without headers matches whatever headers the request has). Stubs for
///   the same request answer in the order they were made, and the last one keeps answering:
///   stub a failure, then a success, to test a retry.
/// - **A stub answers** a response (any status: a 404 is a response, as from the live client), or
///   an error (`URLError(.notConnectedToInternet)`), after a latency on the virtual clock, so a
///   slow response is exact in virtual time (see ``stub(_:_:after:fileID:filePath:line:column:)``).
/// - **A request no stub matches** fails the test at the line that made this network (for the
///   network of `Environment.test()`, that call; for a trait's environment, the test), naming the
///   request and the closest stub with a diff; the code under test gets a ``StubNetworkError``, so
///   it goes on and the test reports everything.
/// - **A stub never used** fails the test at the line that made it, when the virtual-time scope it
///   was made in ends (`@Test(.virtualTime)`, `withVirtualTime { … }`,
///   `scheduler.withVirtualTime { … }`), or else when the network is released. A scope nested in
///   another checks only the stubs made from its start; the outer one checks the rest.
/// - **Every request is recorded**, matched or not, in order, as a server would receive it (one
///   cancelled during its latency is, one cancelled before it is sent is not): ``requests``,
///   ``assertRequests(_:fileID:filePath:line:column:)``, ``assertRequests(count:fileID:filePath:line:column:)``,
///   ``assertNoRequests(fileID:filePath:line:column:)``, ``clear()`` — cumulative, like every
///   recorder of this module.
///
/// `Environment.test()` installs one with no stubs, on its scheduler: a test never reaches the
/// live network unless it asks for it, and any request the code under test sends is reported.
public final class StubNetwork: Network, Sendable {
  let state: Locked<State>
  /// Where the network was made: where a request no stub matches is reported (nil for the network
  /// of a virtual-time trait's environment: then at the test).
  let creation: CallSite?

  /// A network with no stubs, whose latencies run on `scheduler`.
  ///
  /// - Parameters:
  ///   - scheduler: The clock latencies run on. Leave it `nil` inside `@Test(.virtualTime)` or
  ///     `withVirtualTime { … }`: the scope's scheduler is used. `Environment.test(scheduler:)`
  ///     passes its own.
  ///   - fileID: The file that made the network: a request no stub matches is reported at this
  ///     call.
  ///   - filePath: The file's full path, which XCTest needs.
  ///   - line: The line that made the network.
  ///   - column: The column of that call.
  public convenience init(
    scheduler: TestScheduler? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(scheduler: scheduler, at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// A network with no stubs made at `creation`, for test support's own environments.
  init(scheduler: TestScheduler?, at creation: CallSite?) {
    state = Locked(State(scheduler: scheduler))
    self.creation = creation
  }

  deinit {
    reportUnusedStubs()
    finishRecording()
    releaseTapeClaim()
  }

  /// Records `request` and answers it from the first stub that matches, after the stub's latency.
  ///
  /// - Throws: The stub's error; ``StubNetworkError`` when no stub matches (and the test fails);
  ///   `CancellationError` when the task is cancelled. Cancelled before it sends, the request is not
  ///   recorded: a live client never sends it. Cancelled during the stub's latency, it is not
  ///   answered but stays recorded, and the stub it matched counts as used: a live client had sent
  ///   it, and its server got it (the `Network` contract suite checks both alike).
  public func send(_ request: URLRequest) async throws -> NetworkResponse {
    try Task.checkCancellation()
    let request = NetworkRequest(request)
    let (found, scheduler, recorder) = state.withLock { state in
      state.requests.append(request)
      return (state.answer(request), state.scheduler ?? TestScheduler.scoped, state.recorder)
    }
    if found == nil, let recorder {
      return try await record(request, through: recorder, scheduler: scheduler)
    }
    guard let stub = found else {
      // At the line that made the network: an async caller is not on the thread's stack, so the
      // line that sent the request cannot be found the way a co-effect's read site is.
      if let creation {
        reportIssue(unmatchedMessage(request), kind: .unmatchedRequest, at: creation)
      } else {
        reportRead(unmatchedMessage(request), kind: .unmatchedRequest, fallback: nil)
      }
      throw StubNetworkError(request: request)
    }
    if stub.latency > .zero {
      if let scheduler {
        try await scheduler.sleep(for: stub.latency, at: stub.callSite)
      } else {
        let what = stub.tape.map { "the \($0.place), played here," } ?? "the stub made here"
        reportIssue(
          """
          StubNetwork cannot wait \(stub.latency.literal) before answering \(request): it has no TestScheduler, so \
          \(what) answered at once. Send the request inside @Test(.virtualTime) or withVirtualTime { … }, \
          or give the network a scheduler (StubNetwork(scheduler:), StubNetwork(tape:scheduler:)).
          """,
          kind: .misuse,
          at: stub.callSite
        )
      }
    }
    switch stub.answer {
    case .response(let response): return response
    case .failure(let error): throw error
    }
  }

  /// Every request sent through this network since it was made (or last ``clear()``ed), matched or
  /// not, in the order they arrived.
  public var requests: [NetworkRequest] {
    state.withLock { $0.requests }
  }

  /// Whether an exchange of a tape this network plays that nothing asked for fails the test when
  /// the scope ends: true unless the test says otherwise. Set it to false in a test that uses
  /// part of a tape it shares with others — the tape of a whole screen, which its previews play —
  /// where a test of one feature should not have to drive every other:
  ///
  /// ```swift
  /// let network = StubNetwork(tape: "home-screen")
  /// network.expectsEveryExchange = false  // this test loads the feed only
  /// ```
  ///
  /// A request the tape does not hold still fails the test, and so does a stub made by hand that
  /// nothing asked for.
  public var expectsEveryExchange: Bool {
    get { state.withLock { $0.expectsEveryExchange } }
    set { state.withLock { $0.expectsEveryExchange = newValue } }
  }

  /// Forgets the requests recorded so far: the next assertion checks only what is sent after this
  /// call. The stubs stay, and so does what they have answered.
  ///
  /// ```swift
  /// try await model.signIn()  // set-up whose requests this test is not about
  /// network.clear()
  /// ```
  public func clear() {
    state.withLock { $0.requests.removeAll() }
  }

  /// Uses `scheduler` for latencies from now on: the environment it belongs to moved to a
  /// virtual-time scope's scheduler (or, with the scope ended, back). Returns the one it used.
  @discardableResult
  func useScheduler(_ scheduler: TestScheduler?) -> TestScheduler? {
    state.withLock { state in
      defer { state.scheduler = scheduler }
      return state.scheduler
    }
  }
}

extension StubNetwork {
  /// Everything behind the network's lock.
  struct State {
    var scheduler: TestScheduler?
    var stubs: [Stub] = []
    /// Where requests no stub matches go, and the tape they are recorded on, while the network
    /// records a tape.
    var recorder: TapeRecorder?
    /// The tape recorded so far; whether its folder could not be made (which is reported once);
    /// the requests the live network gave no response (redacted); and whether the recording has
    /// ended (the tape is written once).
    var recorded = NetworkTape()
    var recordingFailed = false
    var unanswered: [NetworkRequest] = []
    var recordingEnded = false
    /// The file of the tape this network plays or records, and its mode, for messages; nil
    /// without one.
    var tapeFile: URL?
    var tapeMode: NetworkTapeMode?
    /// Whether an exchange of a tape nothing asked for is reported (``expectsEveryExchange``).
    var expectsEveryExchange = true
    /// The tape this network plays, or has recorded so far.
    var tape: NetworkTape?
    var requests: [NetworkRequest] = []
    /// The schedulers whose current scope will check this network's stubs at its end (one check a
    /// scope), each with the index of the first stub it checks: 0 for a scope that checks alone,
    /// the stubs made from its start for a scope nested in another that checks.
    var checkedBy: [ObjectIdentifier: Int] = [:]

    /// The stub that answers `request`, counted as used: the first matching one not used yet, else
    /// the last matching one.
    mutating func answer(_ request: NetworkRequest) -> Stub? {
      // Stubs made by hand come before a tape's exchanges: they are how a test changes a tape.
      let matching = stubs.indices.filter { stubs[$0].matches(request) }
      let byHand = matching.filter { stubs[$0].tape == nil }
      let candidates = byHand.isEmpty ? matching : byHand
      guard let index = candidates.first(where: { stubs[$0].uses == 0 }) ?? candidates.last else { return nil }
      stubs[index].uses += 1
      return stubs[index]
    }
  }

  /// What a stub answers.
  enum Answer: Sendable {
    case response(NetworkResponse)
    case failure(any Error)
  }

  /// One stub: the request it matches, its answer and latency, where it was made, and how often it
  /// answered.
  struct Stub: Sendable {
    let request: NetworkRequest
    let answer: Answer
    let latency: Duration
    let callSite: CallSite
    /// The exchange of a tape this stub plays, and where it is on the tape (`exchange 2 of the tape
    /// at …/profile.json`); nil for a stub made by hand.
    var tape: (exchange: NetworkTape.Exchange, place: String)? = nil
    var uses = 0
    /// Whether its never being used was reported, so that it is reported once.
    var isReported = false

    /// Whether this stub answers `request`: same method, URL and body, and every header it names
    /// (a tape's, by the tape's rules: JSON compared as JSON, a redacted value matching any).
    func matches(_ request: NetworkRequest) -> Bool {
      if let tape { return tape.exchange.answers(request) }
      return self.request.method == request.method && self.request.url == request.url
        && self.request.body == request.body
        && self.request.headers.allSatisfy { request.value(forHeader: $0.key) == $0.value }
    }

    /// Where a report says it comes from: `made at Tests/…:12`, or `exchange 2 of 3 of the tape
    /// at …, played at Tests/…:12`.
    var origin: String {
      tape.map { "\($0.place), played at \(callSite)" } ?? "made at \(callSite)"
    }

    /// How much of `request` this stub matches, to find the closest one, compared in order: the
    /// method, then the path (scheme, host and path), then the query, then the body, then how many
    /// of its headers the request carries; between stubs alike in all that, the one whose URL
    /// shares the longer beginning with the request's.
    func likeness(to request: NetworkRequest) -> [Int] {
      func parts(_ url: URL) -> (path: String, query: String?) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
          return (url.absoluteString, nil)
        }
        let query = components.percentEncodedQuery
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        return (components.string ?? url.absoluteString, query)
      }
      let (mine, theirs) = (parts(self.request.url), parts(request.url))
      let shared = zip(self.request.url.absoluteString, request.url.absoluteString).prefix { $0 == $1 }.count
      return [
        self.request.method == request.method ? 1 : 0,
        mine.path == theirs.path ? 1 : 0,
        mine.query == theirs.query ? 1 : 0,
        self.request.body == request.body ? 1 : 0,
        self.request.headers.filter { request.value(forHeader: $0.key) == $0.value }.count,
        shared,
      ]
    }

    /// `POST https://… → 200 body: "…"` (or `→ throws …`), as messages list it.
    var summary: String {
      switch answer {
      case .response(let response): "\(request) → \(response)"
      case .failure(let error): "\(request) → throws \(error)"
      }
    }
  }
}
