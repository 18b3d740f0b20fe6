import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useDoor, useSignedInUser } from '../app/door';
import { useAuthMode, useRequestCode, useSignIn } from '../app/useSignIn';
import { onboardingStore } from '../stores/onboardingStore';
import { OnboardingFlow } from './OnboardingFlow';
import { type AccountChoice, EXIT_DELAY_MS } from './steps';

export default function OnboardingPage() {
  const navigate = useNavigate();
  // The provider's toast queue (the app's one), so the page also works under a test's services.
  const { toasts } = useDoor();
  const signedIn = useSignedInUser() !== null;
  const signIn = useSignIn();
  const requestCode = useRequestCode();
  const authMode = useAuthMode();
  const onStepChange = useCallback((step: number) => onboardingStore.getState().setCurrentStep(step), []);
  const onChoiceChange = useCallback(
    (choice: AccountChoice) => onboardingStore.getState().setAccountChoice(choice),
    [],
  );

  return (
    <OnboardingFlow
      signedIn={signedIn}
      initialStep={onboardingStore.getState().currentStep}
      onStepChange={onStepChange}
      initialChoice={onboardingStore.getState().accountChoice}
      onChoiceChange={onChoiceChange}
      signIn={signIn}
      requestCode={requestCode}
      authMode={authMode}
      notify={(notice, variant) => toasts.getState().push({ ...notice, variant: variant ?? 'default' })}
      onFinish={(kind, to) => {
        // Recorded at once so the redirect guard lets the user through when the fade ends.
        const store = onboardingStore.getState();
        if (kind === 'skip') store.skip();
        else store.complete();
        window.setTimeout(() => navigate(to, { replace: true }), EXIT_DELAY_MS);
      }}
    />
  );
}
