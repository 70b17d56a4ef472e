public import Effects
public import Observation

/// A counter that can look up a trivia fact about its number, as a plain `@Observable` model.
///
/// The fact comes from numbersapi.com, through the environment's network, so a test answers it
/// from stubs on virtual time:
///
/// ```swift
/// let model = NumberFactModel()     // reads Environment.current at once
/// model.incrementButtonTapped()     // count 1
/// await model.getFactButtonTapped() // GET http://numbersapi.com/1
/// print(model.fact ?? "")
/// ```
///
/// Only one fetch is in flight at a time: a new tap on Get Fact supersedes the one under way, whose
/// late answer is dropped, and ``cancelButtonTapped()`` stops it.
@MainActor @Observable public final class NumberFactModel {
  /// The number the counter shows.
  public var count: Int
  /// The fact about ``count`` last fetched, or `nil` while there is none to show.
  public var fact: String?
  /// Whether a fact is being fetched.
  public var isLoading = false

  /// The world the model acts on: its `network` sends the fact requests.
  @ObservationIgnored public let environment: Environment
  /// The fetch in flight, which a new fetch or Cancel stops.
  @ObservationIgnored private var inFlight: Task<String, any Error>?

  /// Creates the model with `count`, acting on `environment`.
  ///
  /// - Parameters:
  ///   - count: The number to start from.
  ///   - environment: The world the model acts on; by default the current one, read once here.
  public init(count: Int = 0, environment: Environment = .current) {
    self.count = count
    self.environment = environment
  }

  /// Adds one to the count; the fact, about the old number, goes away.
  public func incrementButtonTapped() {
    count += 1
    fact = nil
  }

  /// Takes one from the count; the fact, about the old number, goes away.
  public func decrementButtonTapped() {
    count -= 1
    fact = nil
  }

  /// Fetches a fact about the current count and shows it, showing ``isLoading`` meanwhile.
  ///
  /// The fact shown before goes away at once. A fetch already in flight is cancelled: its answer,
  /// however late, is never shown. The method returns when this fetch ends, answered, failed,
  /// cancelled, or superseded; a failed fetch leaves ``fact`` `nil`.
  public func getFactButtonTapped() async {
    inFlight?.cancel()
    fact = nil
    isLoading = true
    let request = NetworkRequest.get("http://numbersapi.com/\(count)")
    let network = environment.network
    let fetch = Task { try await network.send(request).text ?? "" }
    inFlight = fetch
    let answer = await withTaskCancellationHandler {
      await fetch.result
    } onCancel: {
      fetch.cancel()
    }
    // Superseded by a newer fetch, or cancelled: the screen belongs to someone else now.
    guard inFlight == fetch else { return }
    inFlight = nil
    if case .success(let text) = answer, !fetch.isCancelled {
      fact = text
    }
    isLoading = false
  }

  /// Stops the fetch in flight, if any: no fact is shown, and loading ends.
  public func cancelButtonTapped() {
    inFlight?.cancel()
    inFlight = nil
    isLoading = false
  }
}
