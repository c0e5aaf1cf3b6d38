import Endpoints
