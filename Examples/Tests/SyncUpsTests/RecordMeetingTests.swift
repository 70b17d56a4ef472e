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

  /// A meeting of `syncUp` under way: its model, what it did outside, its tester, and its timer's
  /// task, started as the view's `.task` would.
  @MainActor struct Meeting {
    let model: RecordMeetingModel
    let outside: Outside
    let tester: ModelTester<RecordMeetingModel>
    let timer: Task<Void, Never>

    init(of syncUp: SyncUp) {
      model = RecordMeetingModel(syncUp: syncUp)
      outside = Outside()
      outside.attach(to: model)
      tester = ModelTester(model)
      let model = model
      timer = Task { await model.task() }
    }
  }

  /// One attendee, one minute.
  static let oneMinute = SyncUp(id: UUID(0), attendees: [Attendee(id: UUID(1))], duration: .seconds(60))

  @Test func theTimerGivesEachAttendeeTheirShareThenEndsTheMeeting() async {
    for _ in 0..<200 {
      await withVirtualTime { _ in
        let meeting = Meeting(of: Self.threeSeconds)
        let (model, outside, tester) = (meeting.model, meeting.outside, meeting.tester)

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
        await meeting.timer.value
        #expect(outside.sounds == 2 && outside.saved == [""])
        await tester.finish()
      }
    }
  }

  @Test func nextGoesToTheNextSpeakerThenAsksHowToEnd() async {
    await withVirtualTime { _ in
      let meeting = Meeting(of: Self.threeSeconds)
      let (model, outside, tester) = (meeting.model, meeting.outside, meeting.tester)

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
      await meeting.timer.value
      #expect(outside.sounds == 2 && outside.saved == [""])
      await tester.finish()
    }
  }

  @Test func endingEarlyAndSavingSavesTheMeeting() async {
    await withVirtualTime { _ in
      let meeting = Meeting(of: Self.oneMinute)
      let (model, outside, tester) = (meeting.model, meeting.outside, meeting.tester)

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
      await meeting.timer.value
      #expect(outside.saved == [""])
      await tester.finish()
    }
  }

  @Test func endingEarlyAndDiscardingSavesNothing() async {
    await withVirtualTime { _ in
      let meeting = Meeting(of: Self.oneMinute)
      let (model, outside, tester) = (meeting.model, meeting.outside, meeting.tester)

      model.endMeetingButtonTapped()
      await tester.assert { $0.alert = .init(isDiscardable: true) }
      model.confirmDiscardTapped()
      await tester.assert {
        $0.alert = nil
        $0.isDismissed = true
      }
      await tester.advance(by: .seconds(1))
      await meeting.timer.value
      #expect(outside.saved.isEmpty)
      await tester.finish()
    }
  }
}
