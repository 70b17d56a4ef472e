import Effects

/// Records what a stream of values did — each value, and whether it completed or failed — so a test
/// can assert on it afterwards.
///
/// Feed it from callbacks (``send(_:)``, ``complete()``, ``fail(_:)``), or let it consume any
/// `AsyncSequence` with ``observe(_:fileID:filePath:line:column:)``:
///
/// ```swift
/// @Test func searchPublishesResultsThenFinishes() async {
///   let results = TestObserver<[String], any Error>()
///   await results.observe(model.search("piz"))
///
///   results.assertValues([[], ["pizza"]])
///   results.assertDidComplete()
/// }
///
/// @Test func theProgressCallbackReportsEachStep() {
///   let progress = TestObserver<Double, Never>()
///   uploader.upload(file, onProgress: progress.send, onFinish: progress.complete)
///
///   progress.assertValues([0.5, 1.0])
///   progress.assertDidComplete()
/// }
/// ```
///
/// Completion and failure are separate outcomes: a sequence that throws has failed, not
/// completed. Values that arrive after either are still recorded. An observer is a reference type,
/// `Sendable` when its values are, and may be fed from many tasks.
public final class TestObserver<Value, Failure: Error> {
  struct State {
    var values: [Value] = []
    var didComplete = false
    var failure: Failure?
  }

  let state = Locked(State())

  /// Creates an observer that has seen nothing.
  public init() {}

  /// Every value received, oldest first.
  public var values: [Value] {
    state.withLock { $0.values }
  }

  /// The latest value received, or `nil` when there is none.
  public var lastValue: Value? {
    state.withLock { $0.values.last }
  }

  /// Whether ``complete()`` was called (or an observed sequence ended without throwing).
  public var didComplete: Bool {
    state.withLock { $0.didComplete }
  }

  /// The error the stream failed with, if it failed.
  public var failure: Failure? {
    state.withLock { $0.failure }
  }

  /// Forgets every value, the completion and the failure: the observer is as new.
  ///
  /// ```swift
  /// observer.clear()
  /// model.reload()
  /// observer.assertValues([.loading, .loaded])
  /// ```
  public func clear() {
    state.withLock { $0 = State() }
  }

  /// Records a value. Pass it as a callback: `onValue: observer.send`.
  public func send(_ value: Value) {
    state.withLock { $0.values.append(value) }
  }

  /// Records that the stream finished normally.
  public func complete() {
    state.withLock { $0.didComplete = true }
  }

  /// Records that the stream failed with `error`.
  public func fail(_ error: Failure) {
    state.withLock { $0.failure = error }
  }

  /// Consumes `sequence` to its end: each element is sent, then the observer completes — or, when
  /// the sequence throws, fails with the error.
  ///
  /// ```swift
  /// let observer = TestObserver<Int, any Error>()
  /// await observer.observe(counter.values)
  /// observer.assertValues([1, 2, 3])
  /// ```
  ///
  /// It returns when the sequence ends, so observe a sequence that finishes (or run it in a task
  /// you cancel). An error that is not a `Failure` (any error, when `Failure` is `Never`) is
  /// reported at this line, and nothing is recorded for it.
  public func observe<S: AsyncSequence>(
    _ sequence: S,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where S.Element == Value {
    do {
      for try await value in sequence {
        send(value)
      }
      complete()
    } catch let error as Failure {
      fail(error)
    } catch {
      reportIssue(
        """
        TestObserver<\(Value.self), \(Failure.self)> cannot record what the observed \(S.self) threw, \
        \(describe(error)), as a failure: it is not a \(Failure.self). Declare the observer with Failure = any Error \
        (or the sequence's error type).
        """,
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
      )
    }
  }
}

extension TestObserver: Sendable where Value: Sendable {}
