// Half 2 of the fuzzing of every form action and JSON endpoint (tests/integration/fuzz.ts).
import { fuzzHalf } from "./fuzz.ts";

fuzzHalf(1);
