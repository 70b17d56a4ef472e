// Context for Sources/EffectsTestSupport/Documentation.docc/EffectsTestSupport.md: the `compute`
// function its overview tests, as the article SpiesAndFixtures.md shows it.
import Effects

func compute(file: String, environment: Environment = .current) -> Outcome<Int, Effect> {
  guard let path = environment.bundle.path(forResource: file, ofType: nil),
    let text = try? environment.fileReader.string(atPath: path),
    let number = Int(text)
  else { return Outcome(value: 0, effects: [.print("No number in \(file)")]) }
  return Outcome(value: number * number, effects: [.print("Computed: \(number * number)")])
}
