import Effects
import EffectsTestSupport
import Foundation
import SyncUps
import Testing

/// The meeting's tests, re-expressed with `ModelTester`: the timer's every tick stated at its
/// instant, on virtual time, with no sleep, yield or expectation.
@MainActor
@Suite struct RecordMeetingTests {
  /// Three attendees, one second each.
  static let threeSeconds = SyncUp(
    id: UUID(0),
    attendees: [Attendee(id: UUID(1)), Attendee(id: UUID(2)), Attendee(id: UUID(3))],
    duration: .seconds(3)
  )

  /// What a meeting did that the model does not show: sounds played, transcripts saved.
  @MainActor final class Outside {
    var sounds = 0
    var saved: [String] = []

    func attach(to model: RecordMeetingModel) {
      model.playSound = { self.sounds += 1 }
      model.onMeetingFinished = { self.saved.append($0) }
    }
  }

  @Test func theTimerGivesEachAttendeeTheirShareThenEndsTheMeeting() async {
    for _ in 0..<200 {
      await withVirtualTime { _ in
        let model = RecordMeetingModel(syncUp: Self.threeSeconds)
        let outside = Outside()
        outside.attach(to: model)
        let tester = ModelTester(model)
        let meeting = Task { await model.task() }

        await tester.advance(by: .seconds(1))
        await tester.assert {
          $0.secondsElapsed = 1
          $0.speakerIndex = 1
        }
        #expect(model.durationRemaining == .seconds(2) && outside.sounds == 1)
        await tester.advance(by: .seconds(1))
        await tester.assert {
          $0.secondsElapsed = 2
          $0.speakerIndex = 2
        }
        await tester.advance(by: .seconds(1))
        await tester.assert {
          $0.secondsElapsed = 3
          $0.isDismissed = true
        }
        await meeting.value
        #expect(outside.sounds == 2 && outside.saved == [""])
        await tester.finish()
      }
    }
  }

  @Test func nextGoesToTheNextSpeakerThenAsksHowToEnd() async {
    await withVirtualTime { _ in
      let model = RecordMeetingModel(syncUp: Self.threeSeconds)
      let outside = Outside()
      outside.attach(to: model)
      let tester = ModelTester(model)
      let meeting = Task { await model.task() }

      model.nextButtonTapped()
      await tester.assert {
        $0.speakerIndex = 1
        $0.secondsElapsed = 1
      }
      model.nextButtonTapped()
      await tester.assert {
        $0.speakerIndex = 2
        $0.secondsElapsed = 2
      }
      model.nextButtonTapped()
      await tester.assert { $0.alert = .init(isDiscardable: false) }

      await tester.advance(by: .seconds(5))  // the alert stops the timer: nothing changes
      await tester.assert()

      await model.confirmSaveTapped()
      await tester.assert {
        $0.alert = nil
        $0.isDismissed = true
      }
      await tester.advance(by: .seconds(1))  // the timer sees the meeting is over
      await meeting.value
      #expect(outside.sounds == 2 && outside.saved == [""])
      await tester.finish()
    }
  }

  @Test func endingEarlyAndSavingSavesTheMeeting() async {
    await withVirtualTime { _ in
      let model = RecordMeetingModel(
        syncUp: SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))], duration: .seconds(60))
      )
      let outside = Outside()
      outside.attach(to: model)
      let tester = ModelTester(model)
      let meeting = Task { await model.task() }

      model.endMeetingButtonTapped()
      await tester.assert { $0.alert = .init(isDiscardable: true) }
      await tester.advance(by: .seconds(5))
      await tester.assert()  // the timer stood still
      #expect(model.durationRemaining == .seconds(60))

      await model.confirmSaveTapped()
      await tester.assert {
        $0.alert = nil
        $0.isDismissed = true
      }
      await tester.advance(by: .seconds(1))
      await meeting.value
      #expect(outside.saved == [""])
      await tester.finish()
    }
  }

  @Test func endingEarlyAndDiscardingSavesNothing() async {
    await withVirtualTime { _ in
      let model = RecordMeetingModel(
        syncUp: SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))], duration: .seconds(60))
      )
      let outside = Outside()
      outside.attach(to: model)
      let tester = ModelTester(model)
      let meeting = Task { await model.task() }

      model.endMeetingButtonTapped()
      await tester.assert { $0.alert = .init(isDiscardable: true) }
      model.confirmDiscardTapped()
      await tester.assert {
        $0.alert = nil
        $0.isDismissed = true
      }
      await tester.advance(by: .seconds(1))
      await meeting.value
      #expect(outside.saved.isEmpty)
      await tester.finish()
    }
  }
}
