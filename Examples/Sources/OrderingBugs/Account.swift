public import Effects

/// Shape 2, a check-then-act across an `await`. A withdrawal checks the balance, awaits the bank's
/// authorization, then takes the money: a second withdrawal that checks while the first awaits
/// sees the balance before it, and both go through: an overdraft.
///
/// The fix, ``Account``: take the money before the await (and give it back if the bank refuses),
/// so that the check and the act are one step.
public actor OverdraftingAccount {
  /// The money in the account.
  public private(set) var balance: Int
  private let network: any Network

  /// An account holding `balance`, whose withdrawals the bank authorizes through `environment`'s
  /// network.
  public init(balance: Int, environment: Environment = .current) {
    self.balance = balance
    network = environment.network
  }

  /// Takes `amount` from the account if the balance covers it; false if it does not. The bug: it
  /// checks, awaits the bank, then takes, so two withdrawals can pass one check; the fix takes
  /// first.
  public func withdraw(_ amount: Int) async throws -> Bool {
    guard balance >= amount else { return false }
    // The bug: the balance checked above may have changed by the time this await returns.
    _ = try await network.send(.post(withdrawalsURL))
    balance -= amount
    return true
  }
}

/// Shape 2, fixed: ``OverdraftingAccount`` taking the money before it awaits the bank, and giving it
/// back if the bank fails: no await between the check and the act.
public actor Account {
  /// The money in the account.
  public private(set) var balance: Int
  private let network: any Network

  /// An account holding `balance`, whose withdrawals the bank authorizes through `environment`'s
  /// network.
  public init(balance: Int, environment: Environment = .current) {
    self.balance = balance
    network = environment.network
  }

  /// Takes `amount` from the account if the balance covers it; false if it does not. The fix: it
  /// takes the money before it awaits the bank, and gives it back if the bank fails.
  public func withdraw(_ amount: Int) async throws -> Bool {
    guard balance >= amount else { return false }
    balance -= amount  // reserved at once
    do {
      _ = try await network.send(.post(withdrawalsURL))
      return true
    } catch {
      balance += amount
      throw error
    }
  }
}

/// Where shape 2's accounts ask the bank to authorize a withdrawal (``OverdraftingAccount`` asks
/// between its check and its act; ``Account``, after both).
public let withdrawalsURL = "https://bank.example.com/withdrawals"
