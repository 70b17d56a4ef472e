public import Effects
import Synchronization

/// Shape 5's callback API: a card terminal's SDK, as they come. It answers a charge once the card
/// has paid, `latency` after it was asked, on the environment's clock; ``cancel()`` stops it.
/// ``DoubleResumingCheckout``'s timeout forgets to call it (the bug); ``Checkout``'s calls it (the
/// fix).
public final class PaymentTerminal: Sendable {
  private let clock: DurationClock
  private let latency: Duration
  private let state = Mutex<(charges: [Int], pending: Task<Void, Never>?)>(([], nil))

  /// A terminal that takes `latency` to answer, on `environment`'s clock.
  public init(latency: Duration, environment: Environment = .current) {
    self.latency = latency
    clock = environment.continuousClock
  }

  /// The amounts the terminal has taken from cards: after a "timed out", the bug's charge shows
  /// here.
  public var charges: [Int] { state.withLock { $0.charges } }

  /// Charges `amount` to the card presented, and calls `completion` with the receipt once it has
  /// paid: unless ``cancel()`` stopped it first.
  public func charge(_ amount: Int, completion: @escaping @Sendable (String) -> Void) {
    let clock = clock
    let latency = latency
    let charging = Task { [self] in
      do { try await clock.sleep(for: latency) } catch { return }
      state.withLock { $0.charges.append(amount) }
      completion("receipt for \(amount)")
    }
    state.withLock { $0.pending = charging }
  }

  /// Stops the charge under way, if any: the card is not charged, and its completion never called.
  public func cancel() {
    state.withLock { $0.pending }?.cancel()
  }
}

/// How a payment ended, as shape 5's checkouts tell the customer: with the bug, `.timedOut` while
/// the card was charged.
public enum Payment: Equatable, Sendable {
  /// The card paid: the terminal's receipt.
  case paid(String)
  /// The terminal did not answer in time: the customer is told the card was not charged.
  case timedOut
}

/// One payment's continuation, as shape 5's checkouts resume it: a stand-in for a checked
/// continuation, whose second resume stops the process. It counts the resumes instead, and passes
/// on the first only.
final class PaymentContinuation: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Payment, Never>?
    var resumes = 0
    var claimed = false
    var timeout: Task<Void, Never>?
  }

  private let state = Mutex(State())

  /// How many times the payment was resumed: more than one is the bug.
  var resumes: Int { state.withLock { $0.resumes } }

  func start(_ continuation: CheckedContinuation<Payment, Never>) {
    state.withLock { $0.continuation = continuation }
  }

  func startTimeout(_ timeout: Task<Void, Never>) {
    state.withLock { $0.timeout = timeout }
  }

  /// Cancels the timeout's task.
  func cancelTimeout() {
    state.withLock { $0.timeout }?.cancel()
  }

  /// Whether the caller is the first to claim the payment: the one path that may resume it (the
  /// fix asks before it resumes).
  func claim() -> Bool {
    state.withLock { state in
      defer { state.claimed = true }
      return !state.claimed
    }
  }

  /// Resumes the payment with `payment`: the first time only, counting every time.
  func resume(_ payment: Payment) {
    let continuation = state.withLock { state in
      state.resumes += 1
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: payment)
  }
}

/// Shape 5, a double resume. A checkout wraps the terminal's callback in a continuation, with a
/// timeout: the answer cancels the timeout, but the timeout, the path nobody tested, forgets to
/// stop the terminal. When the timeout fires first, the customer is told "timed out", the card is
/// charged all the same, and the answer resumes the continuation a second time (a crash with a
/// checked continuation; here, ``resumes`` counts 2).
///
/// The fix, ``Checkout``: the first path to claim the payment resumes it, and stops the other
/// (the timeout stops the terminal); the second path does nothing.
public final class DoubleResumingCheckout: Sendable {
  private let terminal: PaymentTerminal
  private let clock: DurationClock
  private let timeout: Duration
  private let payments = Mutex<[PaymentContinuation]>([])

  /// A checkout charging through `terminal`, giving up after `timeout` on `environment`'s clock.
  public init(terminal: PaymentTerminal, timeout: Duration, environment: Environment = .current) {
    self.terminal = terminal
    self.timeout = timeout
    clock = environment.continuousClock
  }

  /// How many times the payments' continuations were resumed: two for a payment the bug bit (its
  /// second resume, guarded here, would have crashed), one with the fix.
  public var resumes: Int { payments.withLock { $0.reduce(0) { $0 + $1.resumes } } }

  /// Charges `amount`, giving up after the timeout. The bug: the timeout resumes without stopping
  /// the terminal, whose answer resumes again; the fix stops it first.
  public func pay(_ amount: Int) async -> Payment {
    let payment = PaymentContinuation()
    payments.withLock { $0.append(payment) }
    let clock = clock
    let timeout = timeout
    return await withCheckedContinuation { continuation in
      payment.start(continuation)
      terminal.charge(amount) { receipt in
        payment.cancelTimeout()
        payment.resume(.paid(receipt))
      }
      payment.startTimeout(
        Task {
          do { try await clock.sleep(for: timeout) } catch { return }
          // The bug: the terminal is not stopped, and its answer will resume again.
          payment.resume(.timedOut)
        }
      )
    }
  }
}

/// Shape 5, fixed: ``DoubleResumingCheckout`` whose two paths claim the payment before they resume
/// it, the winner stopping the other (the timeout stops the terminal): one resume a payment, and no
/// charge after "timed out".
public final class Checkout: Sendable {
  private let terminal: PaymentTerminal
  private let clock: DurationClock
  private let timeout: Duration
  private let payments = Mutex<[PaymentContinuation]>([])

  /// A checkout charging through `terminal`, giving up after `timeout` on `environment`'s clock.
  public init(terminal: PaymentTerminal, timeout: Duration, environment: Environment = .current) {
    self.terminal = terminal
    self.timeout = timeout
    clock = environment.continuousClock
  }

  /// How many times the payments' continuations were resumed: one a payment, the fix.
  public var resumes: Int { payments.withLock { $0.reduce(0) { $0 + $1.resumes } } }

  /// Charges `amount`, giving up after the timeout. The fix: a path resumes only if it claimed the
  /// payment first, and stops the other: the timeout stops the terminal, the answer the timeout.
  public func pay(_ amount: Int) async -> Payment {
    let payment = PaymentContinuation()
    payments.withLock { $0.append(payment) }
    let clock = clock
    let timeout = timeout
    let terminal = terminal
    return await withCheckedContinuation { continuation in
      payment.start(continuation)
      terminal.charge(amount) { receipt in
        guard payment.claim() else { return }
        payment.cancelTimeout()
        payment.resume(.paid(receipt))
      }
      payment.startTimeout(
        Task {
          do { try await clock.sleep(for: timeout) } catch { return }
          guard payment.claim() else { return }
          terminal.cancel()
          payment.resume(.timedOut)
        }
      )
    }
  }
}
