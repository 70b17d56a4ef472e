import Effects
import EffectsTestSupport
import Testing

/// A `@MainActor` view model that ticks every second while started.
@MainActor private final class TickerModel {
  private(set) var ticks = 0
  private var task: Task<Void, Never>?
  private let environment: Environment

  init(environment: Environment) {
    self.environment = environment
  }

  func start() {
    task = Task {
      while true {
        do {
          try await environment.scheduler.sleep(for: .seconds(1))
        } catch {
          return
        }
        ticks += 1
      }
    }
  }

  func stop() {
    task?.cancel()
  }
}

/// A `@MainActor` search box: searches 300 ms after the last keystroke, through an async API that
/// runs on its caller's actor (`nonisolated(nonsending)`; `VirtualTimeExactnessTests` covers a
/// plain nonisolated one, which hops to the global executor and back).
@MainActor private final class SearchModel {
  private(set) var searches: [String] = []
  private(set) var results: [String] = []
  private var pending: Task<Void, Never>?
  private let environment: Environment

  init(environment: Environment) {
    self.environment = environment
  }

  func type(_ query: String) {
    pending?.cancel()
    pending = Task {
      do {
        try await environment.scheduler.sleep(for: .milliseconds(300))
      } catch {
        return
      }
      searches.append(query)
      results = await searchAPI(query)
    }
  }
}

nonisolated(nonsending) private func searchAPI(_ query: String) async -> [String] {
  ["swift", "swim", "swing"].filter { $0.hasPrefix(query) }
}

@Suite struct TestSchedulerMainActorAsyncTests {
  @MainActor @Test func aMainActorModelTicksExactlyOncePerSecond() async {
    for _ in 0..<100 {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let model = TickerModel(environment: .test(scheduler: scheduler))
        model.start()
        await scheduler.advance(by: .milliseconds(999))
        #expect(model.ticks == 0)
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.ticks == 1)
        await scheduler.advance(by: .seconds(3))
        #expect(model.ticks == 4)
        model.stop()
        await scheduler.advance()
        #expect(scheduler.pending == [])
      }
    }
  }

  @MainActor @Test func aMainActorDebouncedSearchRunsOnceTheUserStopsTyping() async {
    for _ in 0..<100 {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let model = SearchModel(environment: .test(scheduler: scheduler))
        model.type("s")
        await scheduler.advance(by: .milliseconds(100))
        #expect(scheduler.pending.map(\.offset) == [.milliseconds(300)])
        model.type("sw")
        await scheduler.advance(by: .milliseconds(100))
        #expect(scheduler.pending.map(\.offset) == [.milliseconds(400)])
        model.type("swi")
        await scheduler.advance(by: .milliseconds(299))
        #expect(model.searches == [])
        #expect(scheduler.pending.map(\.offset) == [.milliseconds(500)])
        await scheduler.advance(by: .milliseconds(1))
        #expect(model.searches == ["swi"])
        #expect(model.results == ["swift", "swim", "swing"])
        await scheduler.advance(by: .seconds(10))
        #expect(model.searches == ["swi"])
        scheduler.assertNoPendingWork()
      }
    }
  }
}
