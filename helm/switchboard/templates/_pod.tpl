{{/*
The pod template of the API and worker Deployments: one image, two commands. Both listen on 8080:
the API for everything, the worker for /healthz and /readyz only (SWITCHBOARD_WORKER_HEALTH_PORT).
With grpc.enabled the API also serves A2A over gRPC on grpc.port; probes stay on HTTP.
Call: (list $ "api") or (list $ "worker")
*/}}
{{- define "switchboard.podTemplate" -}}
{{- $root := index . 0 }}
{{- $component := index . 1 }}
{{- $values := index $root.Values $component }}
{{- $isApi := eq $component "api" }}
{{- $preStopSleep := ternary $values.preStopSleepSeconds 0 $isApi }}
metadata:
  labels:
    {{- include "switchboard.podLabels" (list $root $component $values.podLabels) | nindent 4 }}
  annotations:
    checksum/config: {{ include "switchboard.configToml" $root | sha256sum }}
    checksum/secret: {{ include "switchboard.secretChecksum" $root }}
    {{- with $values.podAnnotations }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  serviceAccountName: {{ include "switchboard.serviceAccountName" $root }}
  automountServiceAccountToken: false
  {{- with $values.priorityClassName }}
  priorityClassName: {{ . }}
  {{- end }}
  {{- /* No *_SERVICE_HOST / *_PORT variables: a Service named like a Switchboard variable must not set it. */}}
  enableServiceLinks: false
  {{- with $root.Values.imagePullSecrets }}
  imagePullSecrets:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  securityContext:
    {{- toYaml $root.Values.podSecurityContext | nindent 4 }}
  terminationGracePeriodSeconds: {{ include "switchboard.terminationGracePeriodSeconds" (list $root $preStopSleep) }}
  {{- if or $root.Values.postgresql.deploy $values.extraInitContainers }}
  initContainers:
    {{- /*
    The chart's own Postgres exists only after the install, and its post-install migration Job runs
    only once the pods are ready (helm --wait), which they are not on an unmigrated database: `serve`
    and `worker` refuse it, `/readyz` reports it. So each pod migrates first, retried until Postgres
    answers; running it again does nothing, and Prisma's advisory lock keeps two from migrating at once.
    */}}
    {{- if $root.Values.postgresql.deploy }}
    {{- include "switchboard.migrateContainer" $root | nindent 4 }}
    {{- end }}
    {{- with $values.extraInitContainers }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- end }}
  containers:
    - name: {{ $component }}
      image: {{ include "switchboard.image" $root }}
      imagePullPolicy: {{ $root.Values.image.pullPolicy }}
      args: [{{ ternary "serve" "worker" $isApi | quote }}]
      ports:
        - name: http
          containerPort: 8080
          protocol: TCP
        {{- if and $isApi $root.Values.grpc.enabled }}
        - name: grpc
          containerPort: {{ int $root.Values.grpc.port }}
          protocol: TCP
        {{- end }}
      env:
        - name: SWITCHBOARD_CONFIG
          value: /etc/switchboard/switchboard.toml
        - name: HOST
          value: "0.0.0.0"
        - name: PORT
          value: "8080"
        {{- if not $isApi }}
        - name: SWITCHBOARD_WORKER_HEALTH_PORT
          value: "8080"
        {{- end }}
        # Stdio MCP servers (npx ...) need a writable home; the root filesystem is read-only.
        - name: HOME
          value: /tmp
        {{- include "switchboard.databaseUrlEnv" (list $root "") | nindent 8 }}
        {{- include "switchboard.redisUrlEnv" $root | nindent 8 }}
        {{- if $isApi }}
        - name: SWITCHBOARD_WORKER_IN_API
          value: {{ (not $root.Values.worker.enabled) | quote }}
        {{- if $root.Values.grpc.enabled }}
        # A2A over gRPC, on the API pods only (grpc.port).
        - name: SWITCHBOARD_GRPC_PORT
          value: {{ int $root.Values.grpc.port | quote }}
        {{- end }}
        # Operator keys (the console, the admin API), and the clients' keys when given.
        {{- include "switchboard.secretEnv" (list $root "SWITCHBOARD_ADMIN_KEYS" "admin-keys") | nindent 8 }}
        {{- if include "switchboard.hasSecret" (list $root "api-keys") }}
        {{- include "switchboard.secretEnv" (list $root "SWITCHBOARD_API_KEYS" "api-keys") | nindent 8 }}
        {{- end }}
        {{- end }}
        {{- if $root.Values.serviceMonitor.enabled }}
        {{- include "switchboard.secretEnv" (list $root "SWITCHBOARD_METRICS_API_KEY" "metrics-api-key") | nindent 8 }}
        # Prometheus's key, for /metrics alone (Kubernetes expands $(VAR) at container start). A
        # worker serves no API: it gets this key alone, since its /metrics asks for a key as the API's does.
        - name: SWITCHBOARD_METRICS_KEYS
          value: "prometheus=$(SWITCHBOARD_METRICS_API_KEY)"
        {{- end }}
        {{- with include "switchboard.publicUrl" $root }}
        - name: SWITCHBOARD_PUBLIC_URL
          value: {{ . | quote }}
        {{- end }}
        {{- $secretEnv := ternary $root.Values.secrets.existingSecretEnv (keys $root.Values.secrets.env | sortAlpha) (ne $root.Values.secrets.existingSecret "") }}
        {{- range $secretEnv }}
        {{- include "switchboard.secretEnv" (list $root . .) | nindent 8 }}
        {{- end }}
        {{- if include "switchboard.trustedCaSource" $root }}
        - name: NODE_EXTRA_CA_CERTS
          value: /etc/switchboard-ca/ca.pem
        {{- end }}
        {{- with $root.Values.tracing }}
        {{- if .enabled }}
        - name: SWITCHBOARD_TRACING_ENABLED
          value: "true"
        - name: OTEL_SERVICE_NAME
          value: {{ include "switchboard.fullname" $root | quote }}
        - name: OTEL_EXPORTER_OTLP_PROTOCOL
          value: {{ .protocol | quote }}
        {{- with .endpoint }}
        - name: OTEL_EXPORTER_OTLP_ENDPOINT
          value: {{ . | quote }}
        {{- end }}
        {{- if lt (float64 .sampleRatio) 1.0 }}
        - name: OTEL_TRACES_SAMPLER
          value: parentbased_traceidratio
        - name: OTEL_TRACES_SAMPLER_ARG
          value: {{ .sampleRatio | quote }}
        {{- end }}
        {{- end }}
        {{- with .traceUrl }}
        - name: SWITCHBOARD_TRACE_URL
          value: {{ . | quote }}
        {{- end }}
        {{- end }}
        {{- with $root.Values.extraEnv }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
      startupProbe:
        httpGet:
          path: /healthz
          port: http
        {{- toYaml $values.startupProbe | nindent 8 }}
      livenessProbe:
        httpGet:
          path: /healthz
          port: http
        {{- toYaml $values.livenessProbe | nindent 8 }}
      readinessProbe:
        httpGet:
          path: /readyz
          port: http
        {{- toYaml $values.readinessProbe | nindent 8 }}
      {{- if gt (int $preStopSleep) 0 }}
      lifecycle:
        preStop:
          exec:
            command: ["sleep", {{ $preStopSleep | quote }}]
      {{- end }}
      resources:
        {{- toYaml $values.resources | nindent 8 }}
      securityContext:
        {{- toYaml $root.Values.securityContext | nindent 8 }}
      volumeMounts:
        - name: config
          mountPath: /etc/switchboard
          readOnly: true
        - name: tmp
          mountPath: /tmp
        {{- if include "switchboard.trustedCaSource" $root }}
        - name: trusted-ca
          mountPath: /etc/switchboard-ca
          readOnly: true
        {{- end }}
        {{- with $root.Values.extraVolumeMounts }}
        {{- toYaml . | nindent 8 }}
        {{- end }}
    {{- with $values.extraContainers }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  volumes:
    - name: config
      configMap:
        name: {{ include "switchboard.fullname" $root }}
    - name: tmp
      emptyDir:
        sizeLimit: {{ $root.Values.tmpSizeLimit }}
    {{- with $root.Values.trustedCa }}
    {{- if or .configMap .secret }}
    - name: trusted-ca
      {{- if .configMap }}
      configMap:
        name: {{ .configMap }}
      {{- else }}
      secret:
        secretName: {{ .secret }}
      {{- end }}
        items:
          - key: {{ .key | quote }}
            path: ca.pem
    {{- end }}
    {{- end }}
    {{- with $root.Values.extraVolumes }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  {{- with $values.nodeSelector }}
  nodeSelector:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $values.tolerations }}
  tolerations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $values.affinity }}
  affinity:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with $values.topologySpreadConstraints }}
  topologySpreadConstraints:
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end }}

{{/*
`switchboard migrate`: the migration hook Job's container, and with the chart's own Postgres the
pods' init container. It reads only DATABASE_URL (no config file: the migration needs nothing else).
*/}}
{{- define "switchboard.migrateContainer" -}}
- name: migrate
  image: {{ include "switchboard.image" . }}
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  args: ["migrate"]
  env:
    {{- include "switchboard.databaseUrlEnv" (list . (include "switchboard.migrationSecretName" .)) | nindent 4 }}
  resources:
    {{- toYaml .Values.migration.resources | nindent 4 }}
  securityContext:
    {{- toYaml .Values.securityContext | nindent 4 }}
  volumeMounts:
    - name: tmp
      mountPath: /tmp
{{- end }}

{{/* What the hook Jobs (migration, secret generator) share: a deadline, and a time to live once finished. */}}
{{- define "switchboard.hookJobSpec" -}}
activeDeadlineSeconds: {{ .Values.migration.activeDeadlineSeconds }}
ttlSecondsAfterFinished: {{ .Values.migration.ttlSecondsAfterFinished }}
{{- end }}

{{/* The hook Jobs' pods: the security context, pull secrets and the API's placement. */}}
{{- define "switchboard.hookPodPlacement" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
{{- with .Values.api.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .Values.api.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.api.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}
