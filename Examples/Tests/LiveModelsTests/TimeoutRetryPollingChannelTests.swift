import Effects
import EffectsTestSupport
import LiveModels
import Testing

/// `@MainActor` view models on a plain generic `withTimeout`, retry with exponential backoff, a
/// polling loop and an `AsyncChannel` with back-pressure, on virtual time, checked after every
/// step, hundreds of times.
@MainActor @Suite struct TimeoutRetryPollingChannelTests {
  @Test func aLoadFinishesBeforeItsTimeoutOrTimesOutExactlyAtIt() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let clock = Environment.current.continuousClock
        let fast = LoaderModel(clock: clock, timeout: .seconds(5)) {
          try await clock.sleep(for: .seconds(2))
          return "Ada"
        }
        fast.load()
        await scheduler.advance(by: .milliseconds(1_999))
        deviations.check(fast.state == .loading, "\(replay) fast at 1.999 s: \(fast.state)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(fast.state == .loaded("Ada"), "\(replay) fast at 2 s: \(fast.state)")
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending at 2 s: \(scheduler.pending)")

        let slow = LoaderModel(clock: clock, timeout: .seconds(5)) {
          try await clock.sleep(for: .seconds(10))
          return "Grace"
        }
        slow.load()
        await scheduler.advance(by: .milliseconds(4_999))
        deviations.check(slow.state == .loading, "\(replay) slow at 4.999 s: \(slow.state)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(slow.state == .timedOut, "\(replay) slow at 5 s: \(slow.state)")
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending at 7 s: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }

  @Test func aFailingFetchIsRetriedAfter1Then2Then4Seconds() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      let feed = Spy<Void, [String]>("api.feed")
      feed.stub(script: [.failure(Offline()), .failure(Offline()), .success(["news"])])
      await scheduler.withVirtualTime {
        let model = RetryModel(clock: Environment.current.continuousClock) { try feed() }
        model.refresh()
        await scheduler.advance()
        deviations.check(model.state == .waiting(before: 2), "\(replay) at 0 s: \(model.state)")
        await scheduler.advance(by: .milliseconds(999))
        deviations.check(feed.calls.count == 1, "\(replay) calls at 0.999 s: \(feed.calls.count)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(model.state == .waiting(before: 3), "\(replay) at 1 s: \(model.state)")
        await scheduler.advance(by: .milliseconds(1_999))
        deviations.check(feed.calls.count == 2, "\(replay) calls at 2.999 s: \(feed.calls.count)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(model.state == .loaded(["news"]), "\(replay) at 3 s: \(model.state)")
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
      feed.assertScriptConsumed()
    }
    #expect(deviations.list == [])
  }

  @Test func aFetchThatKeepsFailingGivesUpAfterSevenSeconds() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let model = RetryModel(clock: Environment.current.continuousClock) { throw Offline() }
        model.refresh()
        await scheduler.advance(by: .milliseconds(6_999))
        deviations.check(model.state == .waiting(before: 4), "\(replay) at 6.999 s: \(model.state)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(model.state == .gaveUp, "\(replay) at 7 s: \(model.state)")
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }

  @Test func aPollerPollsNowThenEveryFiveSecondsUntilStopped() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      let unread = Spy<Void, Int>("api.unreadCount")
      unread.stub(script: [.success(1), .failure(Offline()), .success(3), .success(4)])
      await scheduler.withVirtualTime {
        let model = PollingModel(clock: Environment.current.continuousClock) { try unread() }
        model.start()
        await scheduler.advance()
        deviations.check(model.values == [1], "\(replay) at 0 s: \(model.values)")
        await scheduler.advance(by: .milliseconds(4_999))
        deviations.check(unread.calls.count == 1, "\(replay) calls at 4.999 s: \(unread.calls.count)")
        await scheduler.advance(by: .milliseconds(1))
        deviations.check(model.values == [1], "\(replay) at 5 s (failed poll): \(model.values)")
        await scheduler.advance(by: .seconds(10))
        deviations.check(model.values == [1, 3, 4], "\(replay) at 15 s: \(model.values)")
        model.stop()
        await scheduler.advance(by: .seconds(10))
        deviations.check(unread.calls.count == 4, "\(replay) calls after stop: \(unread.calls.count)")
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }

  @Test func aChannelHoldsTheSenderUntilTheUploaderTakesThePhoto() async {
    var deviations = Deviations()
    for replay in 0..<replays {
      let scheduler = TestScheduler()
      await scheduler.withVirtualTime {
        let clock = Environment.current.continuousClock
        let queue = UploadQueue { _ in try? await clock.sleep(for: .seconds(1)) }
        queue.start()
        let added = Task { @MainActor in
          for photo in ["a.jpg", "b.jpg", "c.jpg"] { await queue.add(photo) }
        }
        await scheduler.advance()
        deviations.check(queue.uploading == "a.jpg", "\(replay) at 0 s: \(queue.uploading ?? "nothing")")
        await scheduler.advance(by: .seconds(1))
        deviations.check(queue.uploaded == ["a.jpg"], "\(replay) at 1 s: \(queue.uploaded)")
        deviations.check(queue.uploading == "b.jpg", "\(replay) uploading at 1 s: \(queue.uploading ?? "nothing")")
        await scheduler.advance(by: .seconds(1))
        deviations.check(queue.uploading == "c.jpg", "\(replay) uploading at 2 s: \(queue.uploading ?? "nothing")")
        await added.value  // the last send returned when the uploader took c.jpg
        await scheduler.advance(by: .seconds(1))
        deviations.check(queue.uploaded == ["a.jpg", "b.jpg", "c.jpg"], "\(replay) at 3 s: \(queue.uploaded)")
        queue.stop()
        await scheduler.run()
        deviations.check(scheduler.pending.isEmpty, "\(replay) pending: \(scheduler.pending)")
      }
    }
    #expect(deviations.list == [])
  }
}
