// Must compile: iterating a response stream or server-sent events throws `CourierError` itself,
// so a `throws(CourierError)` function needs no conversion and a `catch` gets the typed error.
import Courier
import CourierEvents
import Foundation

func byteCount(of stream: ResponseStream) async throws(CourierError) -> Int {
    var count = 0
    for try await chunk in stream { count += chunk.count }
    return count
}

func lastEventID(in events: ServerSentEvents) async throws(CourierError) -> String? {
    var last: String?
    for try await event in events { last = event.id }
    return last
}

func code(of stream: ResponseStream) async -> CourierError.Code? {
    do {
        _ = try await stream.collect(upTo: 1 << 20)
        return nil
    } catch {
        return error.code
    }
}
