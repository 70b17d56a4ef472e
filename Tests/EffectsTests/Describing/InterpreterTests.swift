import Effects
import EffectsTestHelpers
import Testing

struct InterpreterTests {
  struct Boom: Error, Equatable {}

  /// An interpreter of integers that records each one and fails on `failing`.
  func numbers(failingOn failing: Int? = nil) -> (Interpreter<Int>, Locked<[Int]>) {
    let performed = Locked<[Int]>([])
    let interpreter = Interpreter<Int> { number in
      if number == failing { throw Boom() }
      performed.withLock { $0.append(number) }
    }
    return (interpreter, performed)
  }

  @Test func performRunsEveryEffectInOrder() throws {
    let (interpreter, performed) = numbers()
    try interpreter.perform([3, 1, 2])
    #expect(performed.snapshot == [3, 1, 2])
  }

  @Test func performingNoEffectsDoesNothing() throws {
    let (interpreter, performed) = numbers(failingOn: 1)
    try interpreter.perform([])
    #expect(performed.snapshot.isEmpty)
  }

  @Test func aBatchWhoseThirdEffectFailsPerformsTheFirstTwoAndReportsExactlyTheRest() throws {
    let (interpreter, performed) = numbers(failingOn: 30)
    let error = try #require(throws: InterpreterError<Int>.self) {
      try interpreter.perform([10, 20, 30, 40, 50])
    }
    #expect(performed.snapshot == [10, 20])
    #expect(error.index == 2)
    #expect(error.effect == 30)
    #expect(error.underlying is Boom)
    #expect(error.notPerformed == [40, 50])
  }

  @Test func aFailingLastEffectLeavesNothingUnperformed() throws {
    let (interpreter, performed) = numbers(failingOn: 2)
    let error = try #require(throws: InterpreterError<Int>.self) { try interpreter.perform([1, 2]) }
    #expect(performed.snapshot == [1])
    #expect(error.index == 1)
    #expect(error.notPerformed.isEmpty)
  }

  @Test func runPerformsTheEffectsAndReturnsTheValue() throws {
    let (interpreter, performed) = numbers()
    let value = try interpreter.perform(Outcome(value: "done", effects: [1, 2]))
    #expect(value == "done")
    #expect(performed.snapshot == [1, 2])
  }

  @Test func runThrowsInsteadOfReturningTheValueWhenAnEffectFails() throws {
    let (interpreter, performed) = numbers(failingOn: 1)
    let error = try #require(throws: InterpreterError<Int>.self) {
      _ = try interpreter.perform(Outcome(value: "done", effects: [1, 2]))
    }
    #expect(performed.snapshot.isEmpty)
    #expect(error.notPerformed == [2])
  }

  @Test func pullbackLetsAnAppsEffectsReuseTheBuiltInInterpreter() throws {
    let performed = Locked<[Effect]>([])
    let builtIn = Interpreter<Effect> { effect in performed.withLock { $0.append(effect) } }
    let interpreter: Interpreter<LoginEffect> = builtIn.pullback { effect in
      switch effect {
      case .showAlert(let message): .print(message)
      case .storeToken(let token): .setDefault(.string(token), for: "token")
      }
    }

    let loggedIn = try interpreter.perform(login(.success(token: "abc")))

    #expect(loggedIn)
    #expect(performed.snapshot == [.setDefault("abc", for: "token"), .print("Welcome")])
  }

  @Test func aPulledBackInterpreterReportsFailuresInTheAppsOwnEffects() throws {
    let builtIn = Interpreter<Effect> { effect in
      if case .setDefault = effect { throw Boom() }
    }
    let interpreter: Interpreter<LoginEffect> = builtIn.pullback { effect in
      switch effect {
      case .showAlert(let message): .print(message)
      case .storeToken(let token): .setDefault(.string(token), for: "token")
      }
    }

    let error = try #require(throws: InterpreterError<LoginEffect>.self) {
      try interpreter.perform([.showAlert("Hi"), .storeToken("abc"), .showAlert("Bye")])
    }

    #expect(error.index == 1)
    #expect(error.effect == .storeToken("abc"))
    #expect(error.notPerformed == [.showAlert("Bye")])
  }

  @Test func anInterpreterCanBeSharedWithOtherTasks() async throws {
    let (interpreter, performed) = numbers()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for number in 0..<10 {
        group.addTask { try interpreter.perform([number]) }
      }
      try await group.waitForAll()
    }
    #expect(performed.snapshot.sorted() == Array(0..<10))
  }
}
