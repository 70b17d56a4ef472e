/// Shape 7's background actor: the weather service, forecasts by city. Its answers reach the main
/// actor in either order: the bug shows the one that comes last; the fix, the latest pick's.
public actor ForecastService {
  private let forecasts: [String: String]

  /// A service answering `forecasts`, by city.
  public init(forecasts: [String: String]) {
    self.forecasts = forecasts
  }

  /// The forecast for `city`.
  public func forecast(for city: String) -> String? {
    forecasts[city]
  }
}

/// Shape 7, a `@MainActor` model racing a background actor. Each city picked starts a task that
/// asks the service and shows its answer: when two answers arrive in the other order, the stale
/// one, for the city picked first, is shown last.
///
/// The fix, ``ForecastModel``: a new pick cancels the task before it, and a cancelled task shows
/// nothing.
@MainActor public final class StaleForecastModel {
  /// The city picked last.
  public private(set) var city: String?
  /// The forecast shown: with the bug, sometimes an older pick's.
  public private(set) var forecast: String?
  private let service: ForecastService

  /// A model showing the forecasts of `service`.
  public init(service: ForecastService) {
    self.service = service
  }

  /// Shows the forecast of `city`, once it arrives. Returns the task that loads it. The bug: an
  /// older pick's answer, arriving later, replaces this one's; the fix drops it.
  @discardableResult
  public func pick(_ city: String) -> Task<Void, Never> {
    self.city = city
    return Task {
      // The bug: an answer is shown whenever it arrives, even after a newer pick.
      if let forecast = await service.forecast(for: city) {
        self.forecast = forecast
      }
    }
  }
}

/// Shape 7, fixed: ``StaleForecastModel`` whose new pick cancels the task before it, and whose
/// cancelled task shows nothing: the last pick's forecast is the one shown.
@MainActor public final class ForecastModel {
  /// The city picked last.
  public private(set) var city: String?
  /// The forecast shown.
  public private(set) var forecast: String?
  private let service: ForecastService
  private var loading: Task<Void, Never>?

  /// A model showing the forecasts of `service`.
  public init(service: ForecastService) {
    self.service = service
  }

  /// Shows the forecast of `city`, once it arrives. Returns the task that loads it. The fix: it
  /// cancels the pick before it, whose answer is then never shown.
  @discardableResult
  public func pick(_ city: String) -> Task<Void, Never> {
    self.city = city
    loading?.cancel()
    let loading = Task {
      let forecast = await service.forecast(for: city)
      guard !Task.isCancelled, let forecast else { return }
      self.forecast = forecast
    }
    self.loading = loading
    return loading
  }
}
