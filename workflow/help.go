package workflow

// The long help of the commands that run these jobs: what each does, beyond its flags.

// HelpQmax is the long help of the command that runs the job.
const HelpQmax = `At rung N exactly N workers each keep one request outstanding for --hold; only the trailing
--measure-window is measured, then the server idles for --settle. Q_max is the highest usable
rung whose p95 time to first audio byte meets --slo-ms. Writes the artifact JSON, the raw
per-request JSONL and a PNG plot into --out. Ctrl-C stops the ladder and writes a partial artifact.

With --self the server runs in this process on a loopback port with the real model (the model
flags --model, --slots, --threads, … apply), the quick way to size a machine.`

// HelpBenchReplay is the long help of the command that runs the job.
const HelpBenchReplay = `Replay sends each request of a trace at its time, whatever the ones before it are doing, over
any bench transport, and records every request: the real run beside ` + "`kokoro plan replay`" + `'s
simulation of the same trace (same summary: share within --slo-ms, share shed, p95 time to
first audio, minute by minute). Against ` + "`kokoro emulate --autoscale`" + ` the endpoint scales as
the policy says, so the two can be compared. The trace flags are plan replay's.

Writes bench-replay.json (the summary and the minutes) and bench-replay-requests.jsonl
(every request) into --out.`

// HelpTTotal is the long help of the command that runs the job.
const HelpTTotal = `ttotal holds a probe load on the endpoint (the qmax artifact's transport, at its Q_max per
instance by default), freezes autoscaling, raises DesiredInstanceCount by one, and times the
stages: load_applied, desired_set (the clock starts), instance_logging (the new instance's first
log event), container_started and the container's stage markers, in_service (CurrentInstanceCount
rose), traffic_recovered (the probe's p95 TTFAB back under target for a whole window). The table
lays the stages end to end: every second from load_applied to traffic_recovered is in exactly one
interval, and the interval before desired_set is shown apart from T_total. The instance count and
the scaling are restored on every exit (a state file lets ` + "`kokoro thaw`" + ` finish after a kill).
Writes the ttotal artifact kokoro plan reads. It refuses a qmax artifact of another transport or
configuration unless --allow-config-mismatch.`

// HelpEmulate is the long help of the command that runs the job.
const HelpEmulate = `Serves the SageMaker runtime's wire protocol on one port: InvokeEndpoint and
InvokeEndpointWithResponseStream over HTTP/1.1, InvokeEndpointWithBidirectionalStream over
HTTP/2 cleartext (h2c). With --tls it serves HTTPS instead, HTTP/1.1 and HTTP/2 on the same
port by ALPN, with a certificate signed by a local authority it keeps in --tls-dir and prints
the path of: SDKs that speak HTTP/2 only over TLS (the official Python bidirectional-stream
SDK) reach it that way. Requests go to the containers given by --container (any server on the
SageMaker contract), or to --serve N servers this process starts with the real model (the model
flags --model, --slots, --threads, … apply).

Point any AWS SDK or kokoro bench at it with --aws-endpoint-url (or AWS_ENDPOINT_URL) and any
credentials: requests must be signed for --region and the service "sagemaker", but the secret
is not checked. See docs/emulator.md for what behaves like SageMaker and what does not.

With --control-upstream URL the same port also serves the control-plane APIs: SageMaker's
inference components (endpoint configs whose variants name no model, endpoints on them, the
components) and Application Auto Scaling on their copy count, with target tracking's alarms
created in the upstream's CloudWatch; every other call goes to URL unchanged (a moto server,
which has none of these).`

// HelpDeploy is the long help of the command that runs the job.
const HelpDeploy = `Deploy creates a model from the image and its container environment, an endpoint config with
one production variant, and the endpoint, then waits for InService, printing each step's time.
Deploying the same settings again changes nothing; other settings make a new model and config
and update the endpoint in place (SageMaker starts the new fleet, moves traffic, then retires the
old one), after which the replaced config and model are deleted. --dry-run reads what exists and
prints the calls it would make.

The container environment comes from --env KEY=VALUE, the --slots/--threads/--max-queue-depth
shortcuts and --container-env (the container-env.json that kokoro plan writes), later ones
overriding earlier ones.

--plan takes a plan whose ladder ran several copies per instance (bench qmax --copies) and
deploys the model as an inference component instead: the variant names no model and SageMaker
scales its instances between the plan's bounds (managed instance scaling); the component
starts with the plan's copies per instance on each initial instance, each copy reserving
--copy-memory-mb (and --copy-cores, --copy-accelerators when given). The plan's container
environment fills what the flags leave unset. kokoro policy apply --plan then scales the
copies.`

// HelpDelete is the long help of the command that runs the job.
const HelpDelete = `Delete deregisters the variant's scalable target (its scaling policies go with it) and kokoro's
scale-in alarm, deletes the inference components on the endpoint (and their scalable targets)
and waits until they are gone, deletes the endpoint, waits until it is gone, then deletes its endpoint config and
model and any older ones kokoro deployed for it. Missing pieces are skipped, so an interrupted
delete can be run again.`

// HelpPlan is the long help of the command that runs the job.
const HelpPlan = `Plan turns a qmax artifact (and a ttotal artifact, or an assumed T_total) into
thresholds, cooldowns, MAX_QUEUE_DEPTH and a fleet size from measured throughput (the
arithmetic of docs/planner.md), then searches candidate policies (target tracking on
ConcurrentRequestsPerModel or InvocationsPerInstance, step scaling, floors) for the
cheapest whose share of requests refused in the surge is at most --max-refused, and
writes its Application Auto Scaling / CloudWatch documents, with findings marked
OK / WARN / STOP. Artifacts of the reference tool (tts-bench) are read as well.
Exit status 1 when any finding is STOP (no policy documents are written then).
--out writes, beside them, report.html: one page with the ladder, the candidates' cost
against risk and a replay of the reference and the proposal.
` + "`kokoro plan replay`" + ` plays the policies against traffic.`

// HelpPlanReplay is the long help of the command that runs the job.
const HelpPlanReplay = `Replay makes the plan as ` + "`kokoro plan`" + ` does, then simulates the endpoint variant, request by
request, under a traffic trace: each instance serves as the qmax artifact measured behind
MAX_QUEUE_DEPTH, CloudWatch and Application Auto Scaling act on the policy, and new
instances serve after the scale-out time the ttotal artifact measured (docs/replay.md).
The reference arithmetic's policy and the proposal run on the same trace, side by side.

Traffic: --trace FILE, a CSV of arrivals ("at_s[,chars]") or of rates ("t_s,rps"), or a
built-in --shape:
  step    --from rps until --at, then --to (default: surge × from)
  ramp    --from rps until --at, rising to --to over --over
  day     --from (trough) to --to (peak) and back over --length
  bursts  --from rps with bursts to --to lasting --burst every --every
By default: a step from the trough (--trough-rps) to surge × trough after 10 minutes.

Writes replay.json (the summary, per-minute figures and scaling activities of each policy)
and replay.png (the timeline) into --out, and with --requests every request (JSONL).`

// HelpPolicyApply is the long help of the command that runs the job.
const HelpPolicyApply = `apply registers the scalable target, puts the target-tracking policy, the step scale-in policy
and its CloudWatch alarm (acting on that policy), and removes other policies on the variant. It
prints every difference first; with none it calls nothing. --dry-run prints the calls. A target
whose scaling is suspended (a bench run froze it) is refused.`

// HelpPolicyValidate is the long help of the command that runs the job.
const HelpPolicyValidate = `validate checks that the deployed policy matches the plan (no drift), that the endpoint is in
service inside the target's limits, that the container's MAX_QUEUE_DEPTH is the plan's, and that
the target-tracking policy's alarms exist. With --probe it holds a closed-loop load above the
scale-out target (C_scale_max per instance × 1.5 by default) for --probe-duration and reports
whether and when the scale-out alarm fired, the desired count rose and the new capacity came into
service. Exit status 1 when a check fails or the probe saw no scale-out.`

// HelpThaw is the long help of the command that runs the job.
const HelpThaw = `A bench run against an endpoint records the scalable target, its policies and the instance
count in a state file before it suspends scaling and pins the count, and restores them when it
ends. If it was killed (SIGKILL, a crash, a closed laptop) the state file stays behind, and thaw
puts back exactly what it recorded, then removes it. Without --endpoint or --state it thaws every
state file in the state directory. It refuses a state file whose run is still alive (that run
restores on its own exit) unless --force. --dry-run reads what is deployed and prints the calls a
thaw would make, each with the fields it changes, and keeps the state files.`

// HelpTune is the long help of the command that runs the job.
const HelpTune = `For each slot shape (the intra-op threads of each model session) tune loads the real model
and measures, in this process with no HTTP: the time to first audio of one request at a time,
the engine's throughput with twice as many requests at once as cores, and the model alone with
every slot that fits in the cores kept busy (whole texts, one chunk each: the limit the server's
saturated throughput is a fraction of). Throughput is audio seconds per wall-clock second as a
listener gets them. It then prints the shape with the highest engine throughput (and, within 3 %
of it, the earliest first audio) as the flags and variables to run it with.

--model-only measures only the model-only limit, for each shape.`
